import type { Kysely } from "kysely";
import { sql } from "kysely";

/**
 * Sign-in security (issue 34 §1): an account's TOTP factor (secret sealed with AES-256-GCM, the
 * last step used so a code is never accepted twice), its recovery codes (SHA-256 only), the devices
 * it signed in from (new-device notices), and when each session was last used.
 * Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPg(db);
  const id = (t: any) =>
    pg
      ? t.addColumn("id", "serial", (c: any) => c.primaryKey())
      : t.addColumn("id", "integer", (c: any) => c.primaryKey().autoIncrement());

  await db.schema
    .createTable("totp_factors")
    .addColumn("uid", "integer", (c: any) => c.primaryKey())
    .addColumn("secret", "text", (c: any) => c.notNull())
    // NULL until confirmed with a code: a pending secret signs nobody in.
    .addColumn("enabled_at", "text")
    .addColumn("last_step", "integer")
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .execute();

  await id(db.schema.createTable("recovery_codes"))
    .addColumn("uid", "integer", (c: any) => c.notNull())
    .addColumn("code_hash", "text", (c: any) => c.notNull())
    .addColumn("used_at", "text")
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .execute();
  await db.schema.createIndex("recovery_codes_uid").on("recovery_codes").columns(["uid", "code_hash"]).execute();

  await id(db.schema.createTable("known_devices"))
    .addColumn("uid", "integer", (c: any) => c.notNull())
    // user-agent family and the IPv4 /24 (IPv6 /48): what "the same device" means for the notice
    .addColumn("device_key", "text", (c: any) => c.notNull())
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .addUniqueConstraint("known_devices_uid_key", ["uid", "device_key"])
    .execute();

  await db.schema.alterTable("sessions").addColumn("last_seen_at", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("sessions").dropColumn("last_seen_at").execute();
  await db.schema.dropTable("known_devices").execute();
  await db.schema.dropTable("recovery_codes").execute();
  await db.schema.dropTable("totp_factors").execute();
}

async function isPg(db: Kysely<any>): Promise<boolean> {
  try {
    await sql`select version()`.execute(db);
    return true;
  } catch {
    return false;
  }
}
