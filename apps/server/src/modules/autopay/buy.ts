import { type CreateOrderBody, fenToYuan } from "@burrow/contract";
import type { AppContext } from "../../context";
import { AppError } from "../../shared/errors";
import type { Tx } from "../../shared/tx";
import { placeOrder } from "../orders/place";
import { priceOrder } from "../orders/pricing";
import { findUserByUid } from "../users/users.repository";
import { recordPurchase, topupSpent } from "./autopay.repository";

/** What an automatic purchase did: an order paid from the balance, or why none was placed. */
export type AutoBuy =
  | { ok: true; tradeId: string; amount: number }
  | { ok: false; amount: number; balance: number; message: string };

/**
 * Buys `body` from the balance for an automatic rule, inside the caller's transaction and after
 * its lockUser(uid): priced now, checked against the balance (and for top-ups the month's cap,
 * counted here under the lock so concurrent evaluations cannot both pass it), then placed as a
 * real order (orders/place.ts: the ledger line, delivery, order.paid) marked automatic, and
 * recorded under `key` (a primary key: a second purchase of that period or crossing fails).
 * A refusal (plan gone, period not on sale, balance short, cap reached) places nothing and
 * says why, in words for the customer's notice.
 */
export async function buyAutomatically(
  ctx: AppContext,
  trx: Tx,
  p: {
    uid: number;
    body: CreateOrderBody;
    key: string;
    kind: "renewal" | "topup";
    now: Date;
    /** fen a month's top-ups may spend */
    cap?: number;
    /** the message when the balance is short */
    short: string;
  },
): Promise<AutoBuy> {
  const balance = Number((await findUserByUid(trx, p.uid))?.balance ?? 0);
  let priced: Awaited<ReturnType<typeof priceOrder>>;
  try {
    priced = await priceOrder(trx, p.uid, p.body, p.now);
  } catch (err) {
    if (err instanceof AppError) return { ok: false, amount: 0, balance, message: err.message };
    throw err;
  }
  const amount = priced.quote.amount;
  if (p.cap !== undefined) {
    const spent = await topupSpent(trx, p.uid, p.now);
    if (spent + amount > p.cap) {
      return {
        ok: false,
        amount,
        balance,
        message: `本月自动购买已花费 ${fenToYuan(spent)} 元，再购买 ${fenToYuan(amount)} 元将超过每月上限 ${fenToYuan(p.cap)} 元，未购买`,
      };
    }
  }
  if (balance < amount) return { ok: false, amount, balance, message: p.short };
  const placed = await placeOrder(ctx, trx, { uid: p.uid, body: p.body, now: p.now, priced, automatic: true });
  await recordPurchase(trx, { key: p.key, uid: p.uid, kind: p.kind, tradeId: placed.trade_id, amount, now: p.now });
  return { ok: true, tradeId: placed.trade_id, amount };
}
