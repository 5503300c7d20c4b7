import { type Kysely, sql } from "kysely";
import { isPostgres } from "../dialect";

/**
 * Identity verification, round two (docs/verify.md):
 * - `claim_hash`: the keyed hash of the number a request claims, kept while it is processing or
 *   done (not unique: several accounts may claim one number; operators see them as contested).
 *   `id_hash` (unique) is now the hold: set once done, or for `held_until` while a redirect
 *   provider's request is processing; a manual review holds nothing, so an attacker's
 *   never-finished submission cannot lock the number's owner out.
 * - `evidence_*`: what a manual review is decided on (the full name and number, and the list of
 *   the ID-card photos under DATA_DIR/uploads/verify), encrypted with a per-request key that is
 *   itself sealed under the server's key (`evidence_key`); emptied, and the files deleted, at the
 *   decision or at `evidence_expires_at`. Columns of the request's row, not a table of their own:
 *   a role that owns its tables but may not create new ones (a managed database) can add them.
 * The index on `claim_hash` (the contested numbers in the operators' queue) needs CREATE on the
 * schema on PostgreSQL, which a managed database's role may lack: there it sits in a savepoint
 * and, refused, is left out (the queue then scans the requests) with a warning at start-up.
 * Existing rows: claims copied from the holds; processing requests other than a redirect
 * provider's release their hold; a redirect provider's keep it for 30 minutes from now.
 * Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("verifications").addColumn("claim_hash", "text").execute();
  await db.schema.alterTable("verifications").addColumn("held_until", "text").execute();
  await claimIndex(db);
  await db
    .updateTable("verifications")
    .set((eb: any) => ({ claim_hash: eb.ref("id_hash") }))
    .where("id_hash", "is not", null)
    .execute();
  await db
    .updateTable("verifications")
    .set({ id_hash: null })
    .where("status", "=", 2)
    .where("provider", "<>", "redirect")
    .execute();
  await db
    .updateTable("verifications")
    .set({ held_until: new Date(Date.now() + 30 * 60_000).toISOString() })
    .where("status", "=", 2)
    .where("provider", "=", "redirect")
    .where("id_hash", "is not", null)
    .execute();

  for (const column of ["evidence_key", "evidence_identity", "evidence_photos", "evidence_expires_at"])
    await db.schema.alterTable("verifications").addColumn(column, "text").execute();
}

async function claimIndex(db: Kysely<any>): Promise<void> {
  const create = () =>
    db.schema.createIndex("verifications_claim_hash").on("verifications").column("claim_hash").execute();
  if (!isPostgres(db)) return create();
  await sql`savepoint verify_claim_index`.execute(db);
  try {
    await create();
    await sql`release savepoint verify_claim_index`.execute(db);
  } catch (err) {
    await sql`rollback to savepoint verify_claim_index`.execute(db);
    await sql`release savepoint verify_claim_index`.execute(db);
    process.emitWarning(
      `verifications_claim_hash not created, the verification queue scans the requests: ${(err as Error).message}`,
      "BurrowMigration",
    );
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ["evidence_expires_at", "evidence_photos", "evidence_identity", "evidence_key"])
    await db.schema.alterTable("verifications").dropColumn(column).execute();
  await db.schema.dropIndex("verifications_claim_hash").ifExists().execute();
  await db.schema.alterTable("verifications").dropColumn("held_until").execute();
  await db.schema.alterTable("verifications").dropColumn("claim_hash").execute();
}
