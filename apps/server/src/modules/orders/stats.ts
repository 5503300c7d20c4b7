import { OrderType, PayStatus } from "@burrow/contract";
import type { Kysely } from "kysely";
import { sql } from "kysely";
import type { DB } from "../../db/schema";

/** Money in one window, in fen. */
export interface RevenueTotals {
  /** paid orders other than recharges (plans, packs, renewals), less what refunds in the window gave back */
  revenue: number;
  /** balance recharges paid (deposits, not revenue) */
  recharge: number;
  /** what refunds in the window gave back (already netted out of revenue) */
  refunded: number;
}

/**
 * Revenue between two instants [from, to) for the operator's overview. An order counts when it was
 * paid in the window (refunded orders were paid too, so status 1 and -2); a refund counts when it
 * was made (refunded_at), so a past day's figure never changes. Reads only the orders index
 * orders_paid_at (paid_at, type, amount) and orders_refunded_at.
 */
export async function revenueBetween(db: Kysely<DB>, from: string, to: string): Promise<RevenueTotals> {
  const [paid, refunds] = await Promise.all([
    db
      .selectFrom("orders")
      .select([
        sql<string | number | null>`sum(case when type = ${OrderType.Recharge} then 0 else amount end)`.as("revenue"),
        sql<string | number | null>`sum(case when type = ${OrderType.Recharge} then amount else 0 end)`.as("recharge"),
      ])
      .where("paid_at", ">=", from)
      .where("paid_at", "<", to)
      .where("status", "in", [PayStatus.Paid, PayStatus.Refunded])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("orders")
      .select(sql<string | number | null>`sum(refunded_amount)`.as("refunded"))
      .where("refunded_at", ">=", from)
      .where("refunded_at", "<", to)
      .executeTakeFirstOrThrow(),
  ]);
  const refunded = Number(refunds.refunded ?? 0);
  return { revenue: Number(paid.revenue ?? 0) - refunded, recharge: Number(paid.recharge ?? 0), refunded };
}

const STATE_NAMES: Record<number, string> = {
  [PayStatus.Awaiting]: "awaiting",
  [PayStatus.Paid]: "paid",
  [PayStatus.Closed]: "closed",
  [PayStatus.Refunded]: "refunded",
};

/** How many orders are in each payment state (the metrics gauge). */
export async function ordersByStatus(db: Kysely<DB>): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom("orders")
    .select(["status", (eb) => eb.fn.countAll<string | number>().as("n")])
    .groupBy("status")
    .execute();
  const out: Record<string, number> = { awaiting: 0, paid: 0, closed: 0, refunded: 0 };
  for (const r of rows) out[STATE_NAMES[r.status] ?? String(r.status)] = Number(r.n);
  return out;
}

/** Paid orders (any type, refunded ones included) of these customers: the affiliate page's count. */
export async function countPaidOrdersOf(db: Kysely<DB>, uids: number[]): Promise<number> {
  if (uids.length === 0) return 0;
  const r = await db
    .selectFrom("orders")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("uid", "in", uids)
    .where("status", "in", [PayStatus.Paid, PayStatus.Refunded])
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
