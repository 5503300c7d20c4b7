import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import type { Tx } from "../../shared/tx";
import { totalsOf } from "./affiliate.repository";

/* The affiliate module's part of an account's deletion (docs/leaving.md). */

/** Earnings the customer could still withdraw, and whether a withdrawal is being paid out (under the customer's lock). */
export async function affiliateMoneyOf(
  db: Kysely<DB>,
  uid: number,
): Promise<{ available: number; processing: number }> {
  const t = await totalsOf(db, uid);
  return { available: Math.max(0, t.available), processing: t.processing };
}

/**
 * Erases the account's personal data in the programme: the payee details of its withdrawals
 * (amounts, dates and payout references stay, as records of money paid) and its phone number as
 * shown to the customer who invited it.
 */
export async function eraseAffiliateOf(trx: Tx, uid: number): Promise<void> {
  await trx
    .updateTable("aff_withdrawals")
    .set({ account: null, account_name: null, bank_name: null })
    .where("uid", "=", uid)
    .execute();
  await trx.updateTable("aff_rebates").set({ invitee_phone: "" }).where("invitee_uid", "=", uid).execute();
}
