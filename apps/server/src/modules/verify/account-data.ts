import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import type { Tx } from "../../shared/tx";
import { filesOf, removeEvidenceFiles } from "./evidence";

/* The verify module's part of a customer's data export and of an account's erasure (docs/leaving.md). */

/** The verification's status and masked name and number, for the export: never the full ID number, hashes or photos. */
export async function verificationDataOf(db: Kysely<DB>, uid: number) {
  const row = await db
    .selectFrom("verifications")
    .select(["status", "real_name_masked", "id_number_masked", "provider", "reason", "created_at", "updated_at"])
    .where("uid", "=", uid)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Erases the account's real-name verification (in the erasure's transaction): the row with its
 * masked name and number, hashes (the ID may verify another account afterwards) and encrypted
 * evidence. Returns the ID photos' files for {@link removeVerificationFiles} after the commit.
 */
export async function eraseVerificationOf(trx: Tx, uid: number): Promise<string[]> {
  const gone = await trx.deleteFrom("verifications").where("uid", "=", uid).returning("evidence_photos").execute();
  return gone.flatMap((g) => filesOf(g));
}

export const removeVerificationFiles = (ctx: AppContext, files: string[]): Promise<void> =>
  removeEvidenceFiles(ctx, files);
