import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import type { Figure } from "../../shared/figures";
import type { Tx } from "../../shared/tx";
import { updateUserRow } from "../users/users.repository";

/** A customer's verification row (none before the first submission). */
export const findRow = (db: Kysely<DB>, uid: number) =>
  db.selectFrom("verifications").selectAll().where("uid", "=", uid).executeTakeFirst();

/** The users row mirrors the state (masked), for the profile, lists and overview counts. */
export async function mirror(trx: Tx, uid: number, row: { status: number; name: string | null; id: string | null }) {
  await updateUserRow(trx, uid, { verify_status: row.status, real_name: row.name, id_number_masked: row.id });
}

/** Verifications in a given state (the operator's overview counts done and waiting ones). */
export function verificationsWith(db: Kysely<DB>, status: number): Figure {
  return db
    .selectFrom("verifications")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("status", "=", status);
}
