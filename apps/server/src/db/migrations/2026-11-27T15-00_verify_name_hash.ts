import type { Kysely } from "kysely";

/**
 * `verifications.name_hash`: HMAC-SHA256 (under the ID-number hash's secret) of the normalised
 * full name, so that an external withdrawal's payee name is compared with the verified name in
 * full, not by its masked form (first character and length). Set with each new submission and
 * kept once done (docs/verify.md).
 * Existing rows: the full name was never stored, so there is nothing to fill it from; requests
 * done before stay NULL and their payees are compared in the masked form, flagged as the weaker
 * check in the operators' withdrawal queue (docs/affiliate.md). A column of the owner's table,
 * no index: a managed database's role that owns its tables may add it.
 * Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("verifications").addColumn("name_hash", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("verifications").dropColumn("name_hash").execute();
}
