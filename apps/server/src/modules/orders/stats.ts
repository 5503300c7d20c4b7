import { OrderType, PayStatus } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import type { Figure } from "../../shared/figures";

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
 * Revenue between two instants [from, to) for the operator's overview, as figures it reads with
 * its others (shared/figures.ts): orders paid in the window other than recharges (refunded orders
 * were paid too, so status 1 and -2), recharges paid, and what refunds made in the window
 * (refunded_at) gave back, so a past day's figure never changes. Reads only the orders indexes
 * orders_paid_at (paid_at, type, amount) and orders_refunded_at.
 */
export function revenueFigures(db: Kysely<DB>, from: string, to: string) {
  const paid = (recharges: boolean) =>
    db
      .selectFrom("orders")
      .select((eb) => eb.fn.sum<number | string | null>("amount").as("n"))
      .where("paid_at", ">=", from)
      .where("paid_at", "<", to)
      .where("status", "in", [PayStatus.Paid, PayStatus.Refunded])
      .where("type", recharges ? "=" : "<>", OrderType.Recharge);
  return {
    paid: paid(false) as Figure,
    recharge: paid(true) as Figure,
    refunded: db
      .selectFrom("orders")
      .select((eb) => eb.fn.sum<number | string | null>("refunded_amount").as("n"))
      .where("refunded_at", ">=", from)
      .where("refunded_at", "<", to) as Figure,
  };
}

/** RevenueTotals from revenueFigures' values: revenue is net of the window's refunds. */
export const revenueTotals = (f: { paid: number; recharge: number; refunded: number }): RevenueTotals => ({
  revenue: f.paid - f.refunded,
  recharge: f.recharge,
  refunded: f.refunded,
});

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

/**
 * Paid orders of these customers (refunded ones included), recharges left out: the affiliate page's
 * count, and a recharge earns no rebate (its money is counted when spent).
 */
export async function countPaidOrdersOf(db: Kysely<DB>, uids: number[]): Promise<number> {
  if (uids.length === 0) return 0;
  const r = await db
    .selectFrom("orders")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("uid", "in", uids)
    .where("status", "in", [PayStatus.Paid, PayStatus.Refunded])
    .where("type", "!=", OrderType.Recharge)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
