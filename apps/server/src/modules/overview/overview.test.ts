import { InvoiceStatus, Role, type ViewInfo, WithdrawalStatus } from "@burrow/contract";
import { describe, expect, it } from "vitest";
import { adminSuite } from "../../../test/admin-fixtures";
import { tunnelRow } from "../../../test/frp-fixtures";
import type { TestApp } from "../../../test/harness";
import { addDays, shanghaiDate, shanghaiDayStart } from "../../shared/time";

let t: TestApp;
let admin: string;
adminSuite((ready) => ({ t, admin } = ready));

const today = shanghaiDate();
/** An instant inside the Shanghai day `d`, `h` hours after its start. */
const at = (d: string, h = 12) => new Date(shanghaiDayStart(d).getTime() + h * 3600e3).toISOString();
// Today's instants must not be in the future (the figures are "so far today").
const todayAt = () => new Date(Math.max(shanghaiDayStart(today).getTime(), Date.now() - 60_000)).toISOString();

let seq = 0;
async function order(o: {
  type: number;
  status: number;
  amount: number;
  paid_at?: string | null;
  refunded_at?: string | null;
  refunded_amount?: number;
}) {
  const created = o.paid_at ?? todayAt();
  await t.db
    .insertInto("orders")
    .values({
      trade_id: `T-overview-${++seq}`,
      uid: 1,
      type: o.type,
      pay_method: 2,
      status: o.status,
      name: "x",
      action: "new",
      fee: o.amount,
      price: o.amount,
      code_discount: 0,
      upgrade_credit: 0,
      bonus: 0,
      amount: o.amount,
      note: "",
      created_at: created,
      expires_at: created,
      paid_at: o.paid_at ?? null,
      refunded_at: o.refunded_at ?? null,
      refunded_amount: o.refunded_amount ?? 0,
    })
    .execute();
}

async function tunnel(status: number, n: number) {
  await t.db
    .insertInto("tunnels")
    .values(tunnelRow({ uid: 1, node_id: 1, tun_name: `ov${n}`, remote_port: 30000 + n, status }, todayAt()))
    .execute();
}

const get = async () => {
  const r = await t.api<ViewInfo>("GET", "/super/viewInfo", { token: admin });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
};

describe("operator overview", () => {
  it("answers the figures of seeded users, tunnels, nodes, traffic and revenue", async () => {
    const yesterday = addDays(today, -1);
    const tenAgo = addDays(today, -10);
    const old = addDays(today, -40);
    const monthStart = `${today.slice(0, 8)}01`;
    const inMonth = (d: string) => d >= monthStart;

    const a = await t.register();
    await t.register();
    await t.api("PATCH", "/super/user/info", { token: admin, body: { uid: a.uid, status: -1, ban_reason: "滥用" } });

    // revenue: plan paid today 1000; recharge today 5000 (a deposit); closed and awaiting orders never count;
    // a plan paid yesterday 2000 and refunded today 500; 10 days ago 3000; 40 days ago 7000 (outside).
    await order({ type: 2, status: 1, amount: 1000, paid_at: todayAt() });
    await order({ type: 1, status: 1, amount: 5000, paid_at: todayAt() });
    await order({ type: 2, status: -1, amount: 9999 });
    await order({ type: 3, status: 2, amount: 8888 });
    await order({
      type: 2,
      status: -2,
      amount: 2000,
      paid_at: at(yesterday),
      refunded_at: todayAt(),
      refunded_amount: 500,
    });
    await order({ type: 4, status: 1, amount: 3000, paid_at: at(tenAgo, 23.9) });
    await order({ type: 2, status: 1, amount: 7000, paid_at: at(old) });

    await tunnel(1, 1);
    await tunnel(1, 2);
    await tunnel(2, 3);
    await tunnel(3, 4);
    await tunnel(-1, 5);
    const tunnels = await t.db.selectFrom("tunnels").select(["tun_id", "status"]).execute();
    const traffic = [
      { day: today, traffic_in: 100, traffic_out: 50 },
      { day: yesterday, traffic_in: 1000, traffic_out: 0 },
      { day: tenAgo, traffic_in: 0, traffic_out: 7 },
      { day: old, traffic_in: 1, traffic_out: 1 },
    ];
    for (const tr of traffic)
      await t.db
        .insertInto("tunnel_traffic")
        .values({ tun_id: tunnels[0].tun_id, uid: 1, node_id: 1, ...tr })
        .execute();
    await t.db
      .insertInto("tunnel_traffic")
      .values({ tun_id: tunnels[1].tun_id, uid: 1, node_id: 1, day: today, traffic_in: 5, traffic_out: 5 })
      .execute();

    const node = await t.db.selectFrom("nodes").selectAll().executeTakeFirstOrThrow();
    const { node_id: _id, ...copy } = node;
    for (const [name, status] of [
      ["下线节点", 2],
      ["异常节点", 3],
      ["下架节点", -1],
    ] as const)
      await t.db
        .insertInto("nodes")
        .values({ ...copy, name, status, plugin_secret: `${copy.plugin_secret}${status}` })
        .execute();
    await t.db.updateTable("nodes").set({ status: 1 }).where("node_id", "=", node.node_id).execute();

    const v = await get();
    expect(v).toMatchObject({ users_total: 3, users_today: 3, users_banned: 1, users_verified: 0 });
    expect(v.tunnels).toEqual({ total: 4, online: 2 });
    expect(v.nodes).toMatchObject({ online: 1, offline: 1, exception: 1, off_shelf: 1 });
    expect(v.nodes.attention.map((n) => [n.name, n.status])).toEqual([
      ["下线节点", 2],
      ["异常节点", 3],
    ]);

    expect(v.revenue.today).toBe(1000 - 500);
    expect(v.revenue.today_recharge).toBe(5000);
    const monthRevenue = 500 + (inMonth(yesterday) ? 2000 : 0) + (inMonth(tenAgo) ? 3000 : 0);
    expect(v.revenue.month).toBe(monthRevenue);
    expect(v.revenue.month_recharge).toBe(5000);
    expect(v.traffic.today).toBe(160);
    expect(v.traffic.month).toBe(160 + (inMonth(yesterday) ? 1000 : 0) + (inMonth(tenAgo) ? 7 : 0));

    expect(v.daily).toHaveLength(30);
    expect(v.daily[0].date).toBe(addDays(today, -29));
    const day = (d: string) => v.daily.find((x) => x.date === d);
    expect(day(today)).toMatchObject({ revenue: 500, recharge: 5000, traffic: 160, signups: 3 });
    expect(day(yesterday)).toMatchObject({ revenue: 2000, traffic: 1000 });
    expect(day(tenAgo)).toMatchObject({ revenue: 3000, traffic: 7 });
    expect(v.daily.reduce((s, d) => s + d.revenue, 0)).toBe(500 + 2000 + 3000);
    expect(v.signups.at(-1)).toEqual({ date: today, count: 3 });

    // Today is read live: a payment now shows at once.
    await order({ type: 3, status: 1, amount: 300, paid_at: todayAt() });
    const next = await get();
    expect(next.revenue.today).toBe(800);
    expect(next.revenue.month).toBe(monthRevenue + 300);
  });

  it("counts withdrawals awaiting review and invoices awaiting issue, linking to their filtered queues (issue 30 §12)", async () => {
    const u = await t.register();
    const now = todayAt();
    for (const status of [WithdrawalStatus.Processing, WithdrawalStatus.Done, WithdrawalStatus.Processing, 3])
      await t.db
        .insertInto("aff_withdrawals")
        .values({ uid: u.uid, amount: 100, method: "alipay", account: "a@example.com", status, created_at: now })
        .execute();
    for (const status of [
      InvoiceStatus.Awaiting,
      InvoiceStatus.Issued,
      InvoiceStatus.Cancelled,
      InvoiceStatus.Awaiting,
    ])
      await t.db
        .insertInto("invoices")
        .values({
          uid: u.uid,
          status,
          title_type: "personal",
          title: "张三",
          email: "a@example.com",
          amount: 100,
          created_at: now,
          reason: "",
          user_unread: 0,
          flagged: 0,
          flag_note: "",
        })
        .execute();
    const waiting = (await get()).waiting;
    expect(waiting).toContainEqual({ key: "withdrawals", label: "待审核提现", path: "/withdrawal?status=2", count: 2 });
    expect(waiting).toContainEqual({ key: "invoices", label: "待开具发票", path: "/invoice/list?status=2", count: 2 });
    await t.db.deleteFrom("aff_withdrawals").where("uid", "=", u.uid).execute();
    await t.db.deleteFrom("invoices").where("uid", "=", u.uid).execute();
  });

  it("lists the waiting counters of the app's modules in their order, and keeps the page to staff", async () => {
    // Declared in the manifests of tickets, verify, affiliate and invoices (test/module-manifests.test.ts).
    expect((await get()).waiting).toEqual([
      { key: "tickets", label: "待回复工单", path: "/mgr/ticket", count: 0 },
      { key: "verifications", label: "待审核实名认证", path: "/verify/list", count: 0 },
      { key: "withdrawals", label: "待审核提现", path: "/withdrawal?status=2", count: 0 },
      { key: "invoices", label: "待开具发票", path: "/invoice/list?status=2", count: 0 },
      { key: "outbox", label: "投递失败的事件", path: "/outbox?status=dead", count: 0 },
    ]);
    const u = await t.register();
    const r = await t.api("GET", "/super/viewInfo", { token: u.token });
    expect(r.status).toBe(403);
  });

  it("counts dead event deliveries for Managers only: 事件投递 is their page (issue 31 §3)", async () => {
    const at = new Date().toISOString();
    const event = await t.db
      .insertInto("outbox_events")
      .values({ type: "queue.waiting", payload: "{}", uid: null, dedupe_key: null, created_at: at, fanned_out: 1 })
      .returning("id")
      .executeTakeFirstOrThrow();
    const delivery = (handler: string, status: string) => ({
      event_id: Number(event.id),
      handler,
      status,
      attempts: 8,
      next_at: at,
      holder: null,
      lease_until: null,
      last_error: status === "dead" ? "boom" : null,
      updated_at: at,
    });
    await t.db
      .insertInto("outbox_deliveries")
      .values([delivery("a.dead", "dead"), delivery("b.dead", "dead"), delivery("c.done", "done")])
      .execute();
    expect((await get()).waiting.find((w) => w.key === "outbox")).toEqual({
      key: "outbox",
      label: "投递失败的事件",
      path: "/outbox?status=dead",
      count: 2,
    });
    // Support staff see the overview without it.
    const staff = await t.register();
    await t.api("PATCH", "/super/user/info", { token: admin, body: { uid: staff.uid, role: Role.Support } });
    const r = await t.api<ViewInfo>("GET", "/super/viewInfo", { token: staff.token });
    expect(r.status).toBe(200);
    expect(r.body.data.waiting.map((w) => w.key)).toEqual(["tickets", "verifications", "withdrawals", "invoices"]);
  });
});
