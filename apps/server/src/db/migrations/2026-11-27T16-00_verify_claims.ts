import type { Kysely } from "kysely";

/**
 * Identity verification, round three (docs/verify.md):
 * - `hold_starts`: JSON {claim_hash: ISO time} of the redirect holds this account started in the
 *   last day, so a hold on a number is not renewed by submitting it again, whatever was submitted
 *   in between (X, Y, X keeps X's first end).
 * - `refused_claims`: JSON [{uid, at, provider}] of other accounts whose submission of this
 *   request's number was refused (409) because this request held it: the number shows as
 *   contested to operators, with the refused account.
 * Columns of the owner's table, no index: a managed database's role that owns its tables may add them.
 * Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("verifications").addColumn("hold_starts", "text").execute();
  await db.schema.alterTable("verifications").addColumn("refused_claims", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("verifications").dropColumn("refused_claims").execute();
  await db.schema.alterTable("verifications").dropColumn("hold_starts").execute();
}
