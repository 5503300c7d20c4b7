import type { Kysely } from "kysely";
import { sql } from "kysely";

/** SSL certificates, ACME issues in progress and the ACME account per directory. */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPg(db);
  const id = (t: any) =>
    pg
      ? t.addColumn("id", "serial", (c: any) => c.primaryKey())
      : t.addColumn("id", "integer", (c: any) => c.primaryKey().autoIncrement());
  await id(db.schema.createTable("ssl_certificates"))
    .addColumn("uid", "integer", (c: any) => c.notNull())
    .addColumn("domain", "text", (c: any) => c.notNull())
    .addColumn("source", "text", (c: any) => c.notNull())
    .addColumn("cert_pem", "text", (c: any) => c.notNull())
    .addColumn("chain_pem", "text", (c: any) => c.notNull())
    .addColumn("key_enc", "text", (c: any) => c.notNull())
    .addColumn("names", "text", (c: any) => c.notNull())
    .addColumn("issuer", "text", (c: any) => c.notNull())
    .addColumn("fingerprint", "text", (c: any) => c.notNull())
    .addColumn("not_before", "text", (c: any) => c.notNull())
    .addColumn("not_after", "text", (c: any) => c.notNull())
    .addColumn("notice", "text")
    .addColumn("notice_at", "text")
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .addColumn("updated_at", "text", (c: any) => c.notNull())
    .execute();
  await db.schema
    .createIndex("ssl_certificates_uid_domain")
    .on("ssl_certificates")
    .columns(["uid", "domain"])
    .unique()
    .execute();
  await db.schema
    .createIndex("ssl_certificates_expiry")
    .on("ssl_certificates")
    .columns(["source", "not_after"])
    .execute();
  await id(db.schema.createTable("ssl_orders"))
    .addColumn("uid", "integer", (c: any) => c.notNull())
    .addColumn("domain", "text", (c: any) => c.notNull())
    .addColumn("cert_id", "integer")
    .addColumn("renewal", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("challenge", "text", (c: any) => c.notNull())
    .addColumn("step", "text", (c: any) => c.notNull())
    .addColumn("message", "text")
    .addColumn("history", "text", (c: any) => c.notNull())
    .addColumn("directory", "text", (c: any) => c.notNull())
    .addColumn("order_url", "text", (c: any) => c.notNull())
    .addColumn("authz_url", "text", (c: any) => c.notNull())
    .addColumn("challenge_url", "text", (c: any) => c.notNull())
    .addColumn("token", "text", (c: any) => c.notNull())
    .addColumn("record_value", "text", (c: any) => c.notNull())
    .addColumn("key_enc", "text", (c: any) => c.notNull())
    .addColumn("checks", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("next_check_at", "text")
    .addColumn("lease_until", "text")
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .addColumn("updated_at", "text", (c: any) => c.notNull())
    .execute();
  await db.schema.createIndex("ssl_orders_uid").on("ssl_orders").columns(["uid", "id"]).execute();
  await db.schema.createIndex("ssl_orders_due").on("ssl_orders").columns(["step", "next_check_at"]).execute();
  await db.schema
    .createTable("ssl_acme_accounts")
    .addColumn("directory", "text", (c: any) => c.primaryKey())
    .addColumn("key_enc", "text", (c: any) => c.notNull())
    .addColumn("account_url", "text", (c: any) => c.notNull())
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .execute();
}

/** The same probe as the store migration: only PostgreSQL answers version(). */
async function isPg(db: Kysely<any>): Promise<boolean> {
  try {
    await sql`select version()`.execute(db);
    return true;
  } catch {
    return false;
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("ssl_acme_accounts").execute();
  await db.schema.dropTable("ssl_orders").execute();
  await db.schema.dropTable("ssl_certificates").execute();
}
