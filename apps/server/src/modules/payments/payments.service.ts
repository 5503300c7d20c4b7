import type { AppContext } from "../../context";
import { recordOnlinePayment } from "../orders/orders.service";
import { checkNotify } from "./epay";
import { noteRefusedPayment } from "./failing";

/**
 * Handles the gateway's asynchronous notify. Refuses (and logs, changing nothing) any key beyond
 * the protocol's, a repeated key, a bad signature, another merchant's pid, a malformed amount, an
 * unknown order or an amount that differs from the order's; records a genuine payment exactly
 * once however often it arrives.
 * @returns true when the gateway should be answered "success" (recorded now or before).
 */
export async function handleEpayNotify(ctx: AppContext, raw: Record<string, string> | null): Promise<boolean> {
  if (!raw) {
    ctx.metrics.payment("refused");
    ctx.log.warn("payment notify refused: a parameter is repeated");
    await noteRefusedPayment(ctx, "参数重复");
    return false;
  }
  const log = ctx.log.child({ out_trade_no: raw.out_trade_no, trade_no: raw.trade_no });
  const checked = checkNotify(ctx.config, raw);
  if (!checked.ok) {
    ctx.metrics.payment("refused");
    log.warn(`payment notify refused: ${checked.reason}`);
    await noteRefusedPayment(ctx, checked.reason);
    return false;
  }
  const { params, amount } = checked;
  if (params.trade_status !== "TRADE_SUCCESS") {
    // Signed by the gateway but not a payment: acknowledge so that it stops retrying.
    ctx.metrics.payment("ignored");
    log.info({ trade_status: params.trade_status }, "payment notify ignored: not a successful payment");
    return true;
  }
  const outcome = await recordOnlinePayment(ctx, {
    tradeId: params.out_trade_no,
    channelTradeId: params.trade_no,
    amount,
  });
  ctx.metrics.payment(outcome);
  if (outcome === "unknown") log.warn("payment notify refused: unknown order");
  else if (outcome === "mismatch")
    log.warn({ money: params.money }, "payment notify refused: amount differs from the order");
  else log.info({ outcome }, "payment notify recorded");
  if (outcome === "unknown") await noteRefusedPayment(ctx, "订单不存在");
  else if (outcome === "mismatch") await noteRefusedPayment(ctx, "金额与订单不符");
  return outcome === "paid" || outcome === "duplicate";
}
