import type { Kysely } from "kysely";
import { sql } from "kysely";

/**
 * Sign-in with OpenID Connect providers (modules/oidc): the operator's providers (client secret
 * encrypted), each customer's bindings (one subject per provider, one provider binding per
 * account), the flows in progress (state, nonce, PKCE verifier: single use, short-lived, bound to
 * a browser cookie) and the identities waiting to be linked or registered. Login history rows
 * say how the session was opened. Frozen: never edit, add a new migration.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPg(db);
  const id = (t: any) =>
    pg
      ? t.addColumn("id", "serial", (c: any) => c.primaryKey())
      : t.addColumn("id", "integer", (c: any) => c.primaryKey().autoIncrement());
  await id(db.schema.createTable("oidc_providers"))
    .addColumn("name", "text", (c: any) => c.notNull())
    .addColumn("issuer", "text", (c: any) => c.notNull())
    .addColumn("client_id", "text", (c: any) => c.notNull())
    .addColumn("client_secret_enc", "text", (c: any) => c.notNull())
    .addColumn("scopes", "text", (c: any) => c.notNull())
    .addColumn("enabled", "integer", (c: any) => c.notNull())
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .addColumn("updated_at", "text", (c: any) => c.notNull())
    .execute();
  await id(db.schema.createTable("oidc_identities"))
    .addColumn("uid", "integer", (c: any) => c.notNull())
    .addColumn("provider_id", "integer", (c: any) => c.notNull())
    .addColumn("subject", "text", (c: any) => c.notNull())
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .execute();
  await db.schema
    .createIndex("oidc_identities_subject")
    .on("oidc_identities")
    .columns(["provider_id", "subject"])
    .unique()
    .execute();
  await db.schema
    .createIndex("oidc_identities_uid")
    .on("oidc_identities")
    .columns(["uid", "provider_id"])
    .unique()
    .execute();
  await db.schema
    .createTable("oidc_flows")
    .addColumn("state_hash", "text", (c) => c.primaryKey())
    .addColumn("browser_hash", "text", (c) => c.notNull())
    .addColumn("provider_id", "integer", (c) => c.notNull())
    .addColumn("intent", "text", (c) => c.notNull())
    .addColumn("uid", "integer")
    .addColumn("nonce", "text", (c) => c.notNull())
    .addColumn("code_verifier", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema.createIndex("oidc_flows_expires").on("oidc_flows").column("expires_at").execute();
  await db.schema
    .createTable("oidc_pending")
    .addColumn("ticket_hash", "text", (c) => c.primaryKey())
    .addColumn("browser_hash", "text", (c) => c.notNull())
    .addColumn("provider_id", "integer", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("nickname", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema.createIndex("oidc_pending_expires").on("oidc_pending").column("expires_at").execute();
  await db.schema
    .alterTable("login_logs")
    .addColumn("method", "text", (c) => c.notNull().defaultTo("password"))
    .execute();
  await db.schema.alterTable("login_logs").addColumn("provider", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("login_logs").dropColumn("provider").execute();
  await db.schema.alterTable("login_logs").dropColumn("method").execute();
  for (const t of ["oidc_pending", "oidc_flows", "oidc_identities", "oidc_providers"])
    await db.schema.dropTable(t).execute();
}

async function isPg(db: Kysely<any>): Promise<boolean> {
  try {
    await sql`select version()`.execute(db);
    return true;
  } catch {
    return false;
  }
}
