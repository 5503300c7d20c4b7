import { OrderType, PayStatus } from "@burrow/contract";

/** How long /result/pay keeps asking while the order still awaits payment. */
export const PAY_POLL_INTERVAL_MS = 2_000;
export const PAY_POLL_LIMIT_MS = 90_000;

/** What the result page shows for an order. */
export type PayOutcome = "paid" | "closed" | "refunded" | "waiting" | "timeout";

/**
 * The state of the result page.
 * @param status the order's payment status (SPEC §4)
 * @param waitedMs how long the page has been polling
 */
export function payOutcome(status: number, waitedMs: number): PayOutcome {
  if (status === PayStatus.Paid) return "paid";
  if (status === PayStatus.Closed) return "closed";
  if (status === PayStatus.Refunded) return "refunded";
  return waitedMs >= PAY_POLL_LIMIT_MS ? "timeout" : "waiting";
}

/**
 * Where to go after a payment: recharges to the balance page, everything else to "my plans".
 * @param type the order type
 */
export function nextPlace(type: number): { path: string; label: string } {
  return type === OrderType.Recharge
    ? { path: "/epay/recharge", label: "查看余额" }
    : { path: "/epay/plan", label: "查看我的套餐" };
}

/**
 * Where to try again after a closed order.
 * @param type the order type (a renewal goes back to the plan list, which links each renewal)
 */
export function retryPlace(type: number): { path: string; label: string } {
  if (type === OrderType.Recharge) return { path: "/epay/recharge", label: "重新充值" };
  if (type === OrderType.Renewal) return { path: "/epay/plan", label: "重新续费" };
  return { path: "/purchase/plan", label: "重新购买" };
}
