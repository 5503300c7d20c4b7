import type { AdminNodeDetail, AdminTicketDetail, AdminTicketRow, Paged } from "@burrow/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestTunnel, setPlan } from "../../../test/frp-fixtures";
import { dropPhone, type TestApp } from "../../../test/harness";
import { ticketSuite } from "../../../test/ticket-fixtures";
import { frpRuntime } from "../frp/frp.routes";

/* The staff queue (assignment, replies, customer context) and ban appeals. */

const suite = ticketSuite();
const { open } = suite;
let t: TestApp;
let admin: string;
let support: string;
let node: AdminNodeDetail;
beforeAll(() => {
  ({ t, admin, support, node } = suite.get());
});

describe("the staff queue", () => {
  it("places a page across statuses by exact counts: a ticket that just came is neither skipped nor repeated", async () => {
    const u = await t.register();
    const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
    const ticket = (status: number, i: number) => ({
      uid: u.uid,
      title: `t${i}`,
      category: "other",
      status,
      tun_id: null,
      user_unread: 0,
      last_reply: "",
      last_reply_staff: 0,
      last_reply_at: at(i),
      created_at: at(i),
      closed_at: null,
    });
    // 1,000 awaiting staff (a count large enough to be memoized), then 5 awaiting the customer
    for (let c = 0; c < 5; c++)
      await t.db
        .insertInto("tickets")
        .values(Array.from({ length: 200 }, (_, i) => ticket(2, c * 200 + i)))
        .execute();
    await t.db
      .insertInto("tickets")
      .values(Array.from({ length: 5 }, (_, i) => ticket(3, i)))
      .execute();
    const page101 = async () =>
      (
        await t.api<Paged<AdminTicketRow>>("GET", "/super/ticket", {
          token: support,
          query: { uid: u.uid, page: 101, size: 10 },
        })
      ).body.data.list.map((r) => r.title);
    expect(await page101()).toEqual(["t0", "t1", "t2", "t3", "t4"]);
    // one more awaiting staff, the newest: the 1,001st of its status, first on page 101
    await t.db.insertInto("tickets").values(ticket(2, 5000)).execute();
    expect(await page101()).toEqual(["t5000", "t0", "t1", "t2", "t3", "t4"]);
  });

  it("filters by status, category, user and age; awaiting staff first; shows the customer's context", async () => {
    const u = await t.register();
    await setPlan(t, u.uid, { bandwidth: 10 });
    await createTestTunnel(t, u.token, { node_id: node.node_id });
    const a = (await open(u.token, { category: "billing", title: "发票" })).body.data.ticket_id;
    const b = (await open(u.token)).body.data.ticket_id;
    await t.api("POST", `/super/ticket/${b}/reply`, { token: support, body: { content: "请补充", status: 3 } });
    const q = (query: Record<string, unknown>) =>
      t.api<Paged<AdminTicketRow>>("GET", "/super/ticket", { token: support, query: { uid: u.uid, ...query } });
    const all = await q({});
    expect(all.body.data.list.map((r) => r.ticket_id)).toEqual([a, b]);
    expect(all.body.data.list[0]).toMatchObject({ uid: u.uid, phone: u.phone, status: 2 });
    expect((await q({ status: 3 })).body.data.list.map((r) => r.ticket_id)).toEqual([b]);
    expect((await q({ category: "billing" })).body.data.list.map((r) => r.ticket_id)).toEqual([a]);
    const byPhone = await t.api<Paged<AdminTicketRow>>("GET", "/super/ticket", {
      token: support,
      query: { phone: u.phone },
    });
    expect(byPhone.body.data.total).toBe(2);
    expect((await q({ min_age_hours: 1 })).body.data.total).toBe(0);
    await t.db
      .updateTable("tickets")
      .set({ last_reply_at: new Date(Date.now() - 3 * 3600_000).toISOString() })
      .where("id", "=", a)
      .execute();
    expect((await q({ min_age_hours: 2 })).body.data.list.map((r) => r.ticket_id)).toEqual([a]);
    const bad = await q({ category: "x" });
    expect([bad.status, bad.body.code]).toEqual([400, 10000]);

    const d = await t.api<AdminTicketDetail>("GET", `/super/ticket/${a}`, { token: support });
    expect(d.body.code).toBe("SUCCESS");
    expect(d.body.data.customer).toMatchObject({ uid: u.uid, phone: u.phone, tunnel_total: 1 });
    expect(d.body.data.customer.plan?.bandwidth).toBe(10);
    expect(d.body.data.customer.tunnels).toHaveLength(1);
    expect(Array.isArray(d.body.data.customer.orders)).toBe(true);
    expect((await t.api("GET", "/super/ticket/999999", { token: support })).status).toBe(404);

    // Within one status (no order between statuses needed), still the oldest reply first.
    const c = (await open(u.token)).body.data.ticket_id;
    await t.db.updateTable("tickets").set({ last_reply_at: "2000-01-01T00:00:00.000Z" }).where("id", "=", c).execute();
    expect((await q({ status: 2 })).body.data.list.map((r) => r.ticket_id)).toEqual([c, a]);
  });

  it("pages the whole queue in order across statuses: awaiting staff, awaiting the customer, ended", async () => {
    const u = await t.register();
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) ids.push((await open(u.token, { title: `排队${i}` })).body.data.ticket_id);
    // Statuses 3, 2, 1, 3, 2, 1, 2 and last replies in reverse creation order.
    const statuses = [3, 2, 1, 3, 2, 1, 2];
    for (const [i, id] of ids.entries())
      await t.db
        .updateTable("tickets")
        .set({ status: statuses[i], last_reply_at: new Date(Date.UTC(2020, 0, 10 - i)).toISOString() })
        .where("id", "=", id)
        .execute();
    const expected = [2, 3, 1].flatMap((st) =>
      ids.filter((_, i) => statuses[i] === st).sort((x, y) => ids.indexOf(y) - ids.indexOf(x)),
    );
    for (const size of [1, 2, 3, 7]) {
      const seen: number[] = [];
      for (let page = 1; page <= Math.ceil(7 / size) + 1; page++) {
        const r = await t.api<Paged<AdminTicketRow>>("GET", "/super/ticket", {
          token: support,
          query: { uid: u.uid, page, size },
        });
        expect(r.body.data.total).toBe(7);
        seen.push(...r.body.data.list.map((x) => x.ticket_id));
      }
      expect({ size, seen }).toEqual({ size, seen: expected });
    }
  });

  it('shows no phone ("") for a customer without one, in the queue and the detail; its placeholder finds nothing', async () => {
    const [u, other] = [await t.register(), await t.register()];
    await setPlan(t, u.uid, { bandwidth: 10 });
    await createTestTunnel(t, u.token, { node_id: node.node_id });
    const tickets = [(await open(u.token)).body.data.ticket_id, (await open(other.token)).body.data.ticket_id];
    const placeholder = await dropPhone(t, u.uid);
    for (const [c, id, phone] of [
      [u, tickets[0], ""],
      [other, tickets[1], other.phone],
    ] as const) {
      const list = await t.api<Paged<AdminTicketRow>>("GET", "/super/ticket", {
        token: support,
        query: { uid: c.uid },
      });
      expect(list.body.data.list.map((r) => r.phone)).toEqual([phone]);
      const d = await t.api<AdminTicketDetail>("GET", `/super/ticket/${id}`, { token: support });
      expect([d.body.data.phone, d.body.data.customer.phone]).toEqual([phone, phone]);
      expect(d.body.data.customer.tunnels.map((x) => x.phone)).toEqual(c === u ? [""] : []);
    }
    const byPlaceholder = await t.api<Paged<AdminTicketRow>>("GET", "/super/ticket", {
      token: support,
      query: { phone: placeholder },
    });
    expect(byPlaceholder.body.data.total).toBe(0);
  });

  it("refuses customers on every staff ticket call", async () => {
    const u = await t.register();
    const tk = (await open(u.token)).body.data.ticket_id;
    for (const [m, url] of [
      ["GET", "/super/ticket"],
      ["GET", `/super/ticket/${tk}`],
      ["POST", `/super/ticket/${tk}/reply`],
      ["POST", `/super/ticket/${tk}/close`],
      ["POST", `/super/ticket/${tk}/unlock`],
    ] as const) {
      const r = await t.api(m, url, { token: u.token, body: m === "POST" ? { content: "x" } : undefined });
      expect([url, r.status, r.body.code]).toEqual([url, 403, 30004]);
    }
  });
});

describe("appeals", () => {
  async function plugin(op: string, content: unknown) {
    const res = await t.app.inject({
      method: "POST",
      url: `/api/frp/plugin/${node.node_id}/${node.plugin_secret}?op=${op}&version=0.1.0`,
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ version: "0.1.0", op, content }),
    });
    return res.json() as { reject: boolean; reject_reason?: string };
  }

  it("the owner of a locked tunnel appeals; staff unlock from the ticket and frp allows the tunnel again", async () => {
    const u = await t.register();
    await setPlan(t, u.uid, { bandwidth: 10 });
    const tun = await createTestTunnel(t, u.token, { node_id: node.node_id, protocol: "tcp", local_port: 22 });
    const info = await t.api<{ frp_token: string }>("GET", "/user/userInfo", { token: u.token });
    const proxy = {
      user: { user: `u_${u.uid}`, metas: { token: info.body.data.frp_token }, run_id: "8e2f0c4b9a1d7e35" },
      proxy_name: `u_${u.uid}.t_${tun.tun_id}`,
      proxy_type: "tcp",
      remote_port: tun.remote_port,
    };
    expect((await plugin("NewProxy", proxy)).reject).toBe(false);
    // The write-behind's "online" lands now, not in the middle of the steps below (it would turn
    // the unlocked tunnel's status 2 into 1 if it came right after the unlock).
    await frpRuntime(t.ctx).writer.flush();

    // Not locked yet: no appeal.
    const early = await open(u.token, { category: "appeal", tun_id: tun.tun_id, title: "申诉" });
    expect([early.status, early.body.code]).toEqual([403, 2001]);
    await t.api("PATCH", "/super/tun", {
      token: admin,
      body: { tun_id: tun.tun_id, status: 3, banned_reason: "phishing" },
    });
    expect((await plugin("NewProxy", proxy)).reject).toBe(true);

    const other = await t.register();
    const notMine = await open(other.token, { category: "appeal", tun_id: tun.tun_id, title: "申诉" });
    expect(notMine.status).toBe(404);
    const appeal = await open(u.token, { category: "appeal", tun_id: tun.tun_id, title: "申诉", content: "误封" });
    expect(appeal.body.code).toBe("SUCCESS");
    expect(appeal.body.data).toMatchObject({ category: "appeal", tun_id: tun.tun_id, status: 2 });
    const again = await open(u.token, { category: "appeal", tun_id: tun.tun_id, title: "申诉" });
    expect([again.status, again.body.code]).toEqual([403, 2001]);
    const tk = appeal.body.data.ticket_id;
    const d = await t.api<AdminTicketDetail>("GET", `/super/ticket/${tk}`, { token: support });
    expect(d.body.data.tunnel).toMatchObject({ tun_id: tun.tun_id, status: 3, banned_reason: "phishing" });

    const un = await t.api<AdminTicketDetail>("POST", `/super/ticket/${tk}/unlock`, { token: support, body: {} });
    expect(un.body.code).toBe("SUCCESS");
    expect(un.body.data).toMatchObject({ status: 1, unread: 1 });
    expect(un.body.data.tunnel).toMatchObject({ status: 2, banned_reason: null });
    expect(un.body.data.messages.at(-1)).toMatchObject({ staff: true });
    // The decision cache was invalidated: the very next NewProxy is allowed.
    expect((await plugin("NewProxy", proxy)).reject).toBe(false);
    const audits = await t.db
      .selectFrom("audit_logs")
      .select(["action", "target"])
      .where("target", "in", [`ticket:${tk}`, `tunnel:${tun.tun_id}`])
      .orderBy("id")
      .execute();
    expect(audits.map((a) => a.action)).toEqual(["tunnel.update", "tunnel.update", "ticket.unlock"]);
    // Not locked any more: a second unlock is refused and writes nothing.
    const twice = await t.api("POST", `/super/ticket/${tk}/unlock`, { token: support, body: {} });
    expect([twice.status, twice.body.code]).toEqual([403, 2001]);
  });

  it("unlock is refused on a ticket that is not an appeal", async () => {
    const u = await t.register();
    const tk = (await open(u.token)).body.data.ticket_id;
    const r = await t.api("POST", `/super/ticket/${tk}/unlock`, { token: support, body: {} });
    expect([r.status, r.body.code]).toEqual([403, 2001]);
    expect(
      await t.db.selectFrom("audit_logs").select("id").where("target", "=", `ticket:${tk}`).execute(),
    ).toHaveLength(0);
  });
});
