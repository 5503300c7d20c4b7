import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import { insufficientBalance, notFound } from "../../shared/errors";
import { nowIso } from "../../shared/time";
import type { Tx } from "../../shared/tx";

export interface BalanceChange {
  uid: number;
  /** fen; negative to debit */
  change: number;
  reason: string;
  orderId?: string | null;
  operatorUid?: number | null;
}

/**
 * Changes a balance and writes the ledger row. Call inside a transaction. The update is
 * conditional (`balance + change >= 0`), so concurrent debits can never overdraw: the loser
 * gets 20011 and nothing changes.
 */
export async function changeBalance(trx: Tx, c: BalanceChange): Promise<{ before: number; after: number }> {
  const updated = await trx
    .updateTable("users")
    .set((eb) => ({ balance: eb("balance", "+", c.change) }))
    .where("uid", "=", c.uid)
    .where((eb) => eb(eb("balance", "+", c.change), ">=", 0))
    .returning("balance")
    .executeTakeFirst();
  if (!updated) {
    const exists = await trx.selectFrom("users").select("uid").where("uid", "=", c.uid).executeTakeFirst();
    throw exists ? insufficientBalance() : notFound("用户");
  }
  const after = Number(updated.balance);
  const before = after - c.change;
  await trx
    .insertInto("balance_ledger")
    .values({
      uid: c.uid,
      change: c.change,
      balance_before: before,
      balance_after: after,
      reason: c.reason,
      order_id: c.orderId ?? null,
      operator_uid: c.operatorUid ?? null,
      created_at: nowIso(),
    })
    .execute();
  trx.changes.emit("user.changed", { uid: c.uid });
  return { before, after };
}

export async function listLedger(db: Kysely<DB>, uid: number, limit = 50) {
  return db
    .selectFrom("balance_ledger")
    .select(["id", "change", "balance_before", "balance_after", "reason", "order_id", "created_at"])
    .where("uid", "=", uid)
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}
