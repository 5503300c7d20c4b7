import type { CreateOrderResult } from "@burrow/contract";
import { DAY_MS } from "../src/modules/subscriptions/periods";
import type { TestApp } from "./harness";
import { subsOf } from "./store-fixtures";

/** Orders from the balance (pay_method 1) as the store sends them. */
export const buy = (t: TestApp, token: string, body: Record<string, unknown>) =>
  t.api<CreateOrderResult>("POST", "/user/order", { token, body: { pay_method: 1, ...body } });

/**
 * Buys a month of `planId` for the customer and moves that subscription so that it started
 * `usedDays` ago and ends `leftDays` from now (an upgrade's credit is reckoned from these).
 */
export async function subscribedFor(
  t: TestApp,
  u: { uid: number; token: string },
  planId: number,
  usedDays: number,
  leftDays: number,
) {
  await buy(t, u.token, { type: 2, plan_id: planId, period: "monthly" });
  const now = Date.now();
  const sub = (await subsOf(t, u.uid)).find((s) => s.plan_id === planId)!;
  await t.db
    .updateTable("subscriptions")
    .set({
      start_at: new Date(now - usedDays * DAY_MS).toISOString(),
      end_at: new Date(now + leftDays * DAY_MS).toISOString(),
    })
    .where("id", "=", sub.id)
    .execute();
  return sub;
}
