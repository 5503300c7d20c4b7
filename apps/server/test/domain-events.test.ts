import { type NoticeView, type Paged, TunnelStatus } from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargeTraffic } from "../src/modules/subscriptions/quota";
import { tunnelSeenOnline, tunnelsGone, tunnelsOffline, tunnelsOnline } from "../src/modules/tunnels/sessions";
import { dispatchOutbox } from "../src/shared/outbox-dispatch";
import { transact } from "../src/shared/tx";
import { createTestNode, createTestTunnel, setPlan } from "./frp-fixtures";
import { createTestApp, type TestApp } from "./harness";
import { giveBalance, makePlan } from "./store-fixtures";

/**
 * The owners record their domain events in the transaction of the change (shared/outbox.ts):
 * "order.paid" with the payment, "tunnel.online"/"tunnel.offline" with the status change (only
 * when the status changes), "quota.80" with the charge that crosses 80 % (once per period).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const eventsOf = async (type: string, uid: number) =>
  (
    await t.db
      .selectFrom("outbox_events")
      .select(["type", "payload", "uid"])
      .where("type", "=", type)
      .where("uid", "=", uid)
      .orderBy("id")
      .execute()
  ).map((r) => JSON.parse(r.payload));

describe("order.paid", () => {
  it("is recorded once with the paid order, and not for an order left unpaid", async () => {
    const u = await t.register();
    const plan = await makePlan(t);
    await giveBalance(t, u.uid, 100_000);
    const r = await t.api<{ trade_id: string; status: number }>("POST", "/user/order", {
      token: u.token,
      body: { type: 2, plan_id: plan.id, period: "monthly", pay_method: 1 },
    });
    expect(r.body.code).toBe("SUCCESS");
    const paid = await eventsOf("order.paid", u.uid);
    expect(paid).toEqual([expect.objectContaining({ trade_id: r.body.data.trade_id, uid: u.uid, type: 2 })]);
    expect(paid[0].amount).toBeGreaterThan(0);

    // Refused (insufficient balance): the order's transaction rolls back, no event.
    const poor = await t.register();
    const refused = await t.api("POST", "/user/order", {
      token: poor.token,
      body: { type: 2, plan_id: plan.id, period: "monthly", pay_method: 1 },
    });
    expect(refused.body.code).not.toBe("SUCCESS");
    expect(await eventsOf("order.paid", poor.uid)).toEqual([]);
  });
});

describe("tunnel.online / tunnel.offline", () => {
  it("follow the status changes of the frp writer and the poller, not every session call", async () => {
    const u = await t.register();
    await setPlan(t, u.uid);
    const node = await createTestNode(t);
    const tun = await createTestTunnel(t, u.token, { node_id: node.node_id });
    const at = () => new Date().toISOString();
    const statusOf = async () =>
      (await t.db.selectFrom("tunnels").select("status").where("tun_id", "=", tun.tun_id).executeTakeFirstOrThrow())
        .status;

    await transact(t.ctx, (trx) => tunnelsOnline(trx, [tun.tun_id], "run-1", at()));
    expect(await statusOf()).toBe(TunnelStatus.Connected);
    // The same session opening it again: no change, no event.
    await transact(t.ctx, (trx) => tunnelsOnline(trx, [tun.tun_id], "run-1", at()));
    expect(await eventsOf("tunnel.online", u.uid)).toEqual([
      { tun_id: tun.tun_id, uid: u.uid, node_id: node.node_id, name: tun.tun_name },
    ]);
    // Two opens: the first close is a stale one, the tunnel stays online.
    await transact(t.ctx, (trx) => tunnelsOffline(trx, [tun.tun_id], "run-1", []));
    expect(await statusOf()).toBe(TunnelStatus.Connected);
    expect(await eventsOf("tunnel.offline", u.uid)).toEqual([]);
    await transact(t.ctx, (trx) => tunnelsOffline(trx, [tun.tun_id], "run-1", []));
    expect(await statusOf()).toBe(TunnelStatus.Offline);
    expect(await eventsOf("tunnel.offline", u.uid)).toHaveLength(1);

    // The poller's view: seen online, then gone; each once.
    await transact(t.ctx, (trx) => tunnelSeenOnline(trx, tun.tun_id, "run-2", at()));
    await transact(t.ctx, (trx) => tunnelSeenOnline(trx, tun.tun_id, "run-2", at()));
    await transact(t.ctx, (trx) => tunnelsGone(trx, [tun.tun_id]));
    await transact(t.ctx, (trx) => tunnelsGone(trx, [tun.tun_id]));
    expect(await eventsOf("tunnel.online", u.uid)).toHaveLength(2);
    expect(await eventsOf("tunnel.offline", u.uid)).toHaveLength(2);
  });
});

describe("quota.80", () => {
  it("is recorded by the charge that crosses 80 %, once per period, not on every poll after", async () => {
    const u = await t.register();
    await setPlan(t, u.uid);
    const sub = await t.db
      .selectFrom("subscriptions")
      .select(["id", "traffic_quota", "end_at"])
      .where("uid", "=", u.uid)
      .where("kind", "=", 2)
      .where("status", "=", 1)
      .executeTakeFirstOrThrow();
    const quota = Number(sub.traffic_quota);
    const charge = (bytes: number) => transact(t.ctx, (trx) => chargeTraffic(trx, u.uid, bytes));
    await charge(Math.floor(quota * 0.79));
    expect(await eventsOf("quota.80", u.uid)).toEqual([]);
    await charge(Math.floor(quota * 0.02));
    await charge(Math.floor(quota * 0.01));
    const [e, ...more] = await eventsOf("quota.80", u.uid);
    expect(more).toEqual([]);
    expect(e).toMatchObject({ uid: u.uid, subscription_id: sub.id, period_end: sub.end_at, quota });
    expect(e.used).toBeGreaterThanOrEqual(quota * 0.8);
    // Usage falls back below the line (more quota) and crosses again in the same period: still once.
    await t.db
      .updateTable("subscriptions")
      .set({ traffic_used: Math.floor(quota * 0.5) })
      .where("id", "=", sub.id)
      .execute();
    await charge(Math.floor(quota * 0.4));
    expect(await eventsOf("quota.80", u.uid)).toHaveLength(1);
  });
});

describe("the traffic notice (quota.80, handled by notices.deliver)", () => {
  it("tells the customer once in the notification centre, even when its delivery runs again; not in the assistant", async () => {
    const u = await t.register();
    await setPlan(t, u.uid);
    const sub = await t.db
      .selectFrom("subscriptions")
      .select(["traffic_quota"])
      .where("uid", "=", u.uid)
      .where("kind", "=", 2)
      .where("status", "=", 1)
      .executeTakeFirstOrThrow();
    const list = async (token: string) =>
      (await t.api<Paged<NoticeView>>("GET", "/user/notice", { token })).body.data.list.filter(
        (n) => n.type === "quota.80",
      );
    await transact(t.ctx, (trx) => chargeTraffic(trx, u.uid, Math.ceil(Number(sub.traffic_quota) * 0.85)));
    await dispatchOutbox(t.ctx);
    const [notice, ...others] = await list(u.token);
    expect(others).toEqual([]);
    expect(notice.title).toBe("流量提醒：本期流量已用 80%");
    // A process that died after writing it and before marking the delivery done: run again.
    const [event] = await t.db
      .selectFrom("outbox_events")
      .select("id")
      .where("type", "=", "quota.80")
      .where("uid", "=", u.uid)
      .execute();
    const handlers = await t.db
      .updateTable("outbox_deliveries")
      .set({ status: "pending", next_at: new Date(0).toISOString() })
      .where("event_id", "=", event.id)
      .returning("handler")
      .execute();
    // the notice is the one channel: the assistant does not answer the event too
    expect(handlers.map((h) => h.handler)).not.toContain("assistant.quota-notice");
    expect((await dispatchOutbox(t.ctx)).done).toBeGreaterThanOrEqual(1);
    expect(await list(u.token)).toHaveLength(1);
    expect((await t.api<unknown[]>("GET", "/user/assistant/conversation", { token: u.token })).body.data).toEqual([]);
    // Another customer does not see it.
    const other = await t.register();
    expect(await list(other.token)).toEqual([]);
  });
});
