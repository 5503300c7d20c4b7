/** Queries of the programme's rows that more than one of its parts reads. */
import { RebateState, WithdrawalStatus } from "@burrow/contract";
import { type Kysely, sql } from "kysely";
import type { DB } from "../../db/schema";

export interface Totals {
  pending: number;
  available: number;
  withdrawn: number;
  processing: number;
}

export const num = (v: unknown) => Number(v ?? 0);

/** A customer's rebate totals, from the rows (call under lockUser when deciding on them). */
export async function totalsOf(db: Kysely<DB>, uid: number): Promise<Totals> {
  const [rebates, withdrawals] = await Promise.all([
    db
      .selectFrom("aff_rebates")
      .select([
        sql<string>`sum(case when state = ${RebateState.Pending} then amount - reversed else 0 end)`.as("pending"),
        sql<string>`sum(case when state = ${RebateState.Available} then amount - reversed else 0 end)`.as("released"),
      ])
      .where("uid", "=", uid)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("aff_withdrawals")
      .select([
        sql<string>`sum(case when status = ${WithdrawalStatus.Done} then amount else 0 end)`.as("withdrawn"),
        sql<string>`sum(case when status = ${WithdrawalStatus.Processing} then amount else 0 end)`.as("processing"),
      ])
      .where("uid", "=", uid)
      .executeTakeFirstOrThrow(),
  ]);
  const withdrawn = num(withdrawals.withdrawn);
  const processing = num(withdrawals.processing);
  return {
    pending: num(rebates.pending),
    available: num(rebates.released) - withdrawn - processing,
    withdrawn,
    processing,
  };
}

/** The customer's external withdrawal still processing, if any (at most one at a time). */
export const findExternalProcessing = (db: Kysely<DB>, uid: number) =>
  db
    .selectFrom("aff_withdrawals")
    .select("id")
    .where("uid", "=", uid)
    .where("status", "=", WithdrawalStatus.Processing)
    .where("method", "<>", "balance")
    .executeTakeFirst();
