import type { Kysely } from "kysely";
import { sql } from "kysely";

/**
 * Passkeys (issue 34 §1): an account's WebAuthn credentials (the public key as COSE, the signature
 * counter, transports) and the challenges handed out for them (single use, a few minutes, bound to
 * the session or sign-in step that asked).
 * Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPg(db);
  const id = (t: any) =>
    pg
      ? t.addColumn("id", "serial", (c: any) => c.primaryKey())
      : t.addColumn("id", "integer", (c: any) => c.primaryKey().autoIncrement());

  await id(db.schema.createTable("passkeys"))
    .addColumn("uid", "integer", (c: any) => c.notNull())
    // base64url credential ID: one account only, whoever registers it first
    .addColumn("credential_id", "text", (c: any) => c.notNull().unique())
    // base64url COSE public key
    .addColumn("public_key", "text", (c: any) => c.notNull())
    // the authenticator's signature counter (unsigned 32-bit)
    .addColumn("counter", "bigint", (c: any) => c.notNull().defaultTo(0))
    // JSON array of transport hints
    .addColumn("transports", "text", (c: any) => c.notNull())
    .addColumn("name", "text", (c: any) => c.notNull())
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .addColumn("last_used_at", "text")
    .execute();
  await db.schema.createIndex("passkeys_uid").on("passkeys").column("uid").execute();

  await db.schema
    .createTable("passkey_challenges")
    .addColumn("challenge", "text", (c: any) => c.primaryKey())
    // "register" | "signin" | "mfa"
    .addColumn("purpose", "text", (c: any) => c.notNull())
    // register: the session's account; mfa: the challenge's; signin: 0 (anyone's passkey)
    .addColumn("uid", "integer", (c: any) => c.notNull())
    // register: the session id; mfa: the 30006 challenge's id; signin: ""
    .addColumn("bound_to", "text", (c: any) => c.notNull())
    .addColumn("expires_at", "text", (c: any) => c.notNull())
    .execute();
  await db.schema.createIndex("passkey_challenges_expires").on("passkey_challenges").column("expires_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("passkey_challenges").execute();
  await db.schema.dropTable("passkeys").execute();
}

async function isPg(db: Kysely<any>): Promise<boolean> {
  try {
    await sql`select version()`.execute(db);
    return true;
  } catch {
    return false;
  }
}
