import type { AppContext } from "../../context";
import { recordOnlinePayment } from "../orders/orders.service";
import { epayVerify, gatewayKeys, parseYuan } from "./epay";

/** Flattens query/form values to strings (a repeated key keeps its first value). */
export function flattenParams(...sources: unknown[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const src of sources) {
    if (!src || typeof src !== "object") continue;
    for (const [k, v] of Object.entries(src as Record<string, unknown>)) {
      const value = Array.isArray(v) ? v[0] : v;
      if (typeof value === "string" || typeof value === "number") out[k] ??= String(value);
    }
  }
  return out;
}

/**
 * Handles the gateway's asynchronous notify. Refuses (and logs, changing nothing) a bad
 * signature, another merchant's pid, a malformed amount, an unknown order or an amount that
 * differs from the order's; records a genuine payment exactly once however often it arrives.
 * @returns true when the gateway should be answered "success" (recorded now or before).
 */
export async function handleEpayNotify(ctx: AppContext, params: Record<string, string>): Promise<boolean> {
  const keys = gatewayKeys(ctx.config);
  const log = ctx.log.child({ out_trade_no: params.out_trade_no, trade_no: params.trade_no });
  if (!epayVerify(params, keys.key)) {
    log.warn("payment notify refused: bad signature");
    return false;
  }
  if (params.pid !== keys.pid) {
    log.warn({ pid: params.pid }, "payment notify refused: another merchant's pid");
    return false;
  }
  if (params.trade_status !== "TRADE_SUCCESS") {
    // Signed by the gateway but not a payment: acknowledge so that it stops retrying.
    log.info({ trade_status: params.trade_status }, "payment notify ignored: not a successful payment");
    return true;
  }
  const amount = parseYuan(params.money);
  if (amount === null || !params.out_trade_no || !params.trade_no) {
    log.warn({ money: params.money }, "payment notify refused: malformed");
    return false;
  }
  const outcome = await recordOnlinePayment(ctx, {
    tradeId: params.out_trade_no,
    channelTradeId: params.trade_no,
    amount,
  });
  if (outcome === "unknown") log.warn("payment notify refused: unknown order");
  else if (outcome === "mismatch")
    log.warn({ money: params.money }, "payment notify refused: amount differs from the order");
  else log.info({ outcome }, "payment notify recorded");
  return outcome === "paid" || outcome === "duplicate";
}
