import { OrderType, PayStatus } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import type { OrderRow } from "./orders.table";

/**
 * Which orders paid for the value that leaves a subscription (a refund, upgrade credit moved to
 * the balance), so that every order whose money goes back is told (rebates, invoices).
 *
 * The rule is pro rata (docs/affiliate.md, "Refunds that pay other orders' value back"): the fen
 * leaving subscription S are shared across the orders whose value is in S — the order that opened
 * it and the extensions and renewals still in it — in proportion to what each put in
 * (`value_added`). The order that opened S by an upgrade paid part of its price with the credit
 * of the subscription it replaced; that part of its share is traced, by the same rule, to the
 * orders of the replaced subscription. Shares are whole fen (largest remainders), summing exactly.
 */

/** One order's share of value leaving a subscription, fen. */
export interface ValueShare {
  order: OrderRow;
  fen: number;
}

/** Upgrade chains are short; the bound only guards against a corrupt loop. */
const MAX_DEPTH = 32;

/** Splits `fen` in proportion to `weights` (whole fen, largest remainders first, exact in BigInt). */
export function allocate(fen: number, weights: number[]): number[] {
  const total = weights.reduce((s, w) => s + Math.max(0, w), 0);
  if (fen <= 0 || total <= 0) return weights.map(() => 0);
  const big = BigInt(fen);
  const parts = weights.map((w) => {
    const num = big * BigInt(Math.max(0, w));
    return { whole: Number(num / BigInt(total)), rest: num % BigInt(total) };
  });
  let left = fen - parts.reduce((s, p) => s + p.whole, 0);
  const order = parts
    .map((p, i) => ({ i, rest: p.rest }))
    .sort((a, b) => (b.rest > a.rest ? 1 : b.rest < a.rest ? -1 : a.i - b.i));
  const out = parts.map((p) => p.whole);
  for (const { i } of order) {
    if (left <= 0) break;
    out[i] += 1;
    left -= 1;
  }
  return out;
}

/**
 * The orders whose value is in a subscription now: applied purchases of it that added value,
 * except extensions already refunded (their value left with their own refund).
 */
export const contributorsOf = (db: Kysely<DB>, subscriptionId: number): Promise<OrderRow[]> =>
  db
    .selectFrom("orders")
    .selectAll()
    .where("subscription_id", "=", subscriptionId)
    .where("type", "<>", OrderType.Recharge)
    .where("fulfilment", "=", "applied")
    .where("value_added", ">", 0)
    .where((eb) => eb.or([eb("status", "=", PayStatus.Paid), eb("sub_end_before", "is", null)]))
    .orderBy("id")
    .execute();

/** The part of an order's value that was upgrade credit drawn from the subscription it replaced, fen. */
const creditPart = (o: OrderRow): number =>
  o.action === "upgrade" && o.replaces_subscription_id !== null
    ? Math.max(0, Number(o.value_added) - Number(o.amount))
    : 0;

/**
 * Shares `fen` leaving subscription `subscriptionId` across the orders that paid for it (see the
 * module comment). Fen that no order paid for (a subscription opened by a gift card) are left out:
 * the result may sum to less than `fen`, never more.
 */
export async function shareValueOf(db: Kysely<DB>, subscriptionId: number, fen: number): Promise<ValueShare[]> {
  const out = new Map<string, ValueShare>();
  const add = (order: OrderRow, n: number) => {
    if (n <= 0) return;
    const had = out.get(order.trade_id);
    out.set(order.trade_id, { order, fen: (had?.fen ?? 0) + n });
  };
  const walk = async (subId: number, n: number, depth: number): Promise<number> => {
    if (n <= 0 || depth > MAX_DEPTH) return 0;
    const orders = await contributorsOf(db, subId);
    const parts = allocate(
      n,
      orders.map((o) => Number(o.value_added)),
    );
    let placed = 0;
    for (const [i, o] of orders.entries()) {
      const credit = creditPart(o);
      const [money, fromCredit] = allocate(parts[i], [Number(o.value_added) - credit, credit]);
      // The credit part goes to the orders that paid for the replaced subscription; what none did stays here.
      const traced = fromCredit > 0 ? await walk(o.replaces_subscription_id as number, fromCredit, depth + 1) : 0;
      add(o, money + fromCredit - traced);
      placed += parts[i];
    }
    return placed;
  };
  await walk(subscriptionId, fen, 0);
  return [...out.values()];
}
