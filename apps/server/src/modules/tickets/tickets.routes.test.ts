import fs from "node:fs/promises";
import path from "node:path";
import {
  type AdminNodeDetail,
  type AdminTicketDetail,
  type AdminTicketRow,
  type Paged,
  TICKET_STORAGE_QUOTA_BYTES,
  TICKET_UPLOADS_PER_HOUR,
  type TicketAttachmentView,
  type TicketDetail,
  type TicketRow,
  type ViewInfo,
} from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestNode, createTestTunnel, setPlan } from "../../../test/frp-fixtures";
import { createTestApp, dropPhone, type TestApp } from "../../../test/harness";
import { frpRuntime } from "../frp/frp.routes";
import { MAX_PENDING_UPLOADS } from "./attachments";
import { ticketJobs } from "./jobs";
import { MAX_OPEN_TICKETS } from "./tickets.service";

let t: TestApp;
let admin: string;
let support: string;
let node: AdminNodeDetail;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  const s = await t.register();
  await t.api("PATCH", "/super/user/info", { token: admin, body: { uid: s.uid, role: 2 } });
  support = await t.login(s.phone, s.password);
  node = await createTestNode(t, { bandwidth: 0 }, admin);
});
afterAll(() => t.close());

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000100" +
    "05fe02fea72d7d0000000049454e44ae426082",
  "hex",
);

async function upload(token: string, file: Buffer, filename = "a.png", type = "image/png") {
  const boundary = "----burrowtickets";
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({
    method: "POST",
    url: "/api/user/ticket/attachment",
    headers: { authorization: `Bearer ${token}`, "content-type": `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  return {
    status: res.statusCode,
    body: res.json() as { code: string | number; msg: string; data: TicketAttachmentView },
  };
}

const getFile = (id: number, token?: string) =>
  t.app.inject({
    method: "GET",
    url: `/api/user/ticket/attachment/${id}`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

const open = (token: string, body: Record<string, unknown> = {}) =>
  t.api<TicketDetail>("POST", "/user/ticket", {
    token,
    body: { title: "隧道连不上", category: "tunnel", content: "frpc 报错 login to server failed", ...body },
  });

describe("customer tickets", () => {
  it("opens a ticket with an image, lists it with its status and last reply, shows the thread", async () => {
    const u = await t.register();
    const img = await upload(u.token, PNG);
    expect(img.body.code).toBe("SUCCESS");
    expect(img.body.data).toMatchObject({ mime: "image/png", size: PNG.length });
    const r = await open(u.token, { attachments: [img.body.data.id] });
    expect(r.body.code).toBe("SUCCESS");
    expect(r.body.data).toMatchObject({ status: 2, category: "tunnel", unread: 0, last_reply_staff: false });
    expect(r.body.data.messages).toHaveLength(1);
    expect(r.body.data.messages[0].attachments).toEqual([
      { id: img.body.data.id, mime: "image/png", size: PNG.length },
    ]);
    const list = await t.api<Paged<TicketRow>>("GET", "/user/ticket", { token: u.token });
    expect(list.body.data.total).toBe(1);
    expect(list.body.data.list[0]).toMatchObject({ ticket_id: r.body.data.ticket_id, status: 2 });
    expect(list.body.data.list[0].last_reply).toContain("login to server failed");
  });

  it("counts tickets waiting for staff on the operator's overview", async () => {
    const admin = await t.adminToken();
    const waiting = async () =>
      (await t.api<ViewInfo>("GET", "/super/viewInfo", { token: admin })).body.data.waiting.find(
        (w) => w.key === "tickets",
      );
    const before = (await waiting())?.count ?? -1;
    expect(before).toBeGreaterThanOrEqual(0);
    const u = await t.register();
    await open(u.token);
    expect(await waiting()).toMatchObject({ count: before + 1, path: "/mgr/ticket" });
  });

  it("refuses bad input naming the field, and changes nothing", async () => {
    const u = await t.register();
    const noTitle = await open(u.token, { title: "" });
    expect([noTitle.status, noTitle.body.code]).toEqual([400, 10000]);
    expect(noTitle.body.msg).toContain("title");
    const badCat = await open(u.token, { category: "nope" });
    expect([badCat.status, badCat.body.msg.includes("category")]).toEqual([400, true]);
    const four = await Promise.all([1, 2, 3, 4].map(() => upload(u.token, PNG)));
    const tooMany = await open(u.token, { attachments: four.map((x) => x.body.data.id) });
    expect([tooMany.status, tooMany.body.msg.includes("attachments")]).toEqual([400, true]);
    const appealNoTun = await open(u.token, { category: "appeal" });
    expect([appealNoTun.status, appealNoTun.body.msg.includes("tun_id")]).toEqual([400, true]);
    expect((await t.api<Paged<TicketRow>>("GET", "/user/ticket", { token: u.token })).body.data.total).toBe(0);
  });

  it("refuses a file whose content is not an image whatever its name and content type, and one over 5 MB", async () => {
    const u = await t.register();
    const html = await upload(u.token, Buffer.from("<html><script>alert(1)</script></html>"), "x.png", "image/png");
    expect([html.status, html.body.code]).toEqual([400, 10000]);
    expect(html.body.msg).toContain("file");
    const svg = await upload(
      u.token,
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      "x.svg",
      "image/svg+xml",
    );
    expect(svg.status).toBe(400);
    const big = await upload(u.token, Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]));
    expect([big.status, big.body.msg.includes("5 MB")]).toEqual([400, true]);
    const stored = await t.db.selectFrom("ticket_attachments").select("id").where("uid", "=", u.uid).execute();
    expect(stored).toHaveLength(0);
  });

  it("bounds uploads not yet attached to a ticket", async () => {
    const u = await t.register();
    for (let i = 0; i < MAX_PENDING_UPLOADS; i++) expect((await upload(u.token, PNG)).body.code).toBe("SUCCESS");
    const over = await upload(u.token, PNG);
    expect([over.status, over.body.code]).toEqual([403, 2001]);
  });

  it("serves an attachment to its ticket's owner and to staff only; anyone else gets 404", async () => {
    const owner = await t.register();
    const other = await t.register();
    const img = await upload(owner.token, PNG);
    const id = img.body.data.id;
    // Before it is attached: only the uploader, not even staff.
    expect((await getFile(id, owner.token)).statusCode).toBe(200);
    expect((await getFile(id, support)).statusCode).toBe(404);
    // Another customer cannot attach it to their own ticket either.
    const stolen = await open(other.token, { attachments: [id] });
    expect([stolen.status, stolen.body.msg.includes("attachments")]).toEqual([400, true]);
    const tk = (await open(owner.token, { attachments: [id] })).body.data.ticket_id;
    const mine = await getFile(id, owner.token);
    expect([mine.statusCode, mine.headers["content-type"], mine.headers["cache-control"]]).toEqual([
      200,
      "image/png",
      "private, no-store",
    ]);
    expect(mine.rawPayload.equals(PNG)).toBe(true);
    expect((await getFile(id, support)).statusCode).toBe(200);
    expect((await getFile(id, admin)).statusCode).toBe(200);
    const theirs = await getFile(id, other.token);
    expect([theirs.statusCode, theirs.json().code]).toEqual([404, 2004]);
    expect((await getFile(999999, other.token)).json()).toEqual(theirs.json());
    expect((await getFile(id)).statusCode).toBe(401);
    // Reusing an attached upload on another message is refused.
    const reuse = await t.api("POST", `/user/ticket/${tk}/reply`, {
      token: owner.token,
      body: { content: "x", attachments: [id] },
    });
    expect([reuse.status, reuse.body.msg.includes("attachments")]).toEqual([400, true]);
    expect(await t.db.selectFrom("ticket_messages").select("id").where("ticket_id", "=", tk).execute()).toHaveLength(1);
  });

  it("hides another customer's ticket: read, reply and close are 404", async () => {
    const a = await t.register();
    const b = await t.register();
    const tk = (await open(a.token)).body.data.ticket_id;
    for (const [m, url, body] of [
      ["GET", `/user/ticket/${tk}`, undefined],
      ["POST", `/user/ticket/${tk}/reply`, { content: "hi" }],
      ["POST", `/user/ticket/${tk}/close`, undefined],
    ] as const) {
      const r = await t.api(m, url, { token: b.token, body });
      expect([url, r.status]).toEqual([url, 404]);
    }
    expect((await t.api<Paged<TicketRow>>("GET", "/user/ticket", { token: b.token })).body.data.total).toBe(0);
    const msgs = await t.db.selectFrom("ticket_messages").select("id").where("ticket_id", "=", tk).execute();
    expect(msgs).toHaveLength(1);
  });
});

describe("the ticket state machine", () => {
  it("2 → staff asks for more (3, unread) → customer reads and replies (2) → staff ends (1) → no more replies", async () => {
    const u = await t.register();
    const tk = (await open(u.token)).body.data.ticket_id;
    const ask = await t.api<AdminTicketDetail>("POST", `/super/ticket/${tk}/reply`, {
      token: support,
      body: { content: "请提供 frpc 日志", status: 3 },
    });
    expect(ask.body.code).toBe("SUCCESS");
    expect(ask.body.data.status).toBe(3);
    expect((await t.api<{ count: number }>("GET", "/user/ticket/unread", { token: u.token })).body.data.count).toBe(1);
    const list = await t.api<Paged<TicketRow>>("GET", "/user/ticket", { token: u.token });
    expect(list.body.data.list[0]).toMatchObject({ status: 3, unread: 1, last_reply_staff: true });
    const read = await t.api<TicketDetail>("GET", `/user/ticket/${tk}`, { token: u.token });
    expect(read.body.data.messages.map((m) => m.staff)).toEqual([false, true]);
    expect((await t.api<{ count: number }>("GET", "/user/ticket/unread", { token: u.token })).body.data.count).toBe(0);
    const rep = await t.api<TicketDetail>("POST", `/user/ticket/${tk}/reply`, {
      token: u.token,
      body: { content: "日志如下" },
    });
    expect(rep.body.data.status).toBe(2);
    // A staff reply may also leave it waiting for staff.
    const keep = await t.api<AdminTicketDetail>("POST", `/super/ticket/${tk}/reply`, {
      token: support,
      body: { content: "正在排查", status: 2 },
    });
    expect(keep.body.data.status).toBe(2);
    const end = await t.api<AdminTicketDetail>("POST", `/super/ticket/${tk}/close`, { token: support, body: {} });
    expect(end.body.data.status).toBe(1);
    const late = await t.api("POST", `/user/ticket/${tk}/reply`, { token: u.token, body: { content: "还在吗" } });
    expect([late.status, late.body.code]).toEqual([403, 2001]);
    const staffLate = await t.api("POST", `/super/ticket/${tk}/reply`, { token: support, body: { content: "x" } });
    expect([staffLate.status, staffLate.body.code]).toEqual([403, 2001]);
    expect((await t.api("POST", `/super/ticket/${tk}/close`, { token: support, body: {} })).body.code).toBe(2001);
    expect((await t.api("POST", `/user/ticket/${tk}/close`, { token: u.token })).body.code).toBe(2001);
    const msgs = await t.db.selectFrom("ticket_messages").select("id").where("ticket_id", "=", tk).execute();
    expect(msgs).toHaveLength(4);
    const audits = await t.db.selectFrom("audit_logs").select("action").where("target", "=", `ticket:${tk}`).execute();
    expect(audits.map((a) => a.action).sort()).toEqual(["ticket.close", "ticket.reply", "ticket.reply"]);
  });

  it("the customer closes their own ticket; a staff reply with status 1 ends it too", async () => {
    const u = await t.register();
    const a = (await open(u.token)).body.data.ticket_id;
    const closed = await t.api<TicketDetail>("POST", `/user/ticket/${a}/close`, { token: u.token });
    expect(closed.body.data.status).toBe(1);
    const b = (await open(u.token)).body.data.ticket_id;
    const r = await t.api<AdminTicketDetail>("POST", `/super/ticket/${b}/reply`, {
      token: admin,
      body: { content: "已处理", status: 1 },
    });
    expect(r.body.data.status).toBe(1);
    const bad = await t.api("POST", `/super/ticket/${b}/reply`, { token: admin, body: { content: "x", status: 4 } });
    expect([bad.status, bad.body.msg.includes("status")]).toEqual([400, true]);
  });
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

describe("upload limits (issue 30 §6)", () => {
  const HOUR = 3600_000;
  /** Files this customer has under DATA_DIR/uploads/tickets. */
  const filesOf = async (uid: number) =>
    (await fs.readdir(path.resolve(t.ctx.config.DATA_DIR, "uploads", "tickets")).catch(() => [])).filter((f) =>
      f.startsWith(`${uid}-`),
    );
  /** Earlier images of the customer, a day old (files long gone from the disk are no matter here): `bytes` in all. */
  async function earlierImages(u: { uid: number; token: string }, bytes: number) {
    const tk = (await open(u.token)).body.data;
    const day = new Date(Date.now() - 24 * HOUR).toISOString();
    const row = (size: number, attached: boolean, i: number) => ({
      uid: u.uid,
      ticket_id: attached ? tk.ticket_id : null,
      message_id: attached ? tk.messages[0].id : null,
      file: `${u.uid}-earlier${i}.png`,
      mime: "image/png",
      size,
      created_at: day,
    });
    // Half attached to a message, half never sent: both count.
    const half = Math.floor(bytes / 2);
    await t.db
      .insertInto("ticket_attachments")
      .values([row(half, true, 1), row(bytes - half, false, 2)])
      .execute();
  }

  it("upload three, send them in a reply, repeat: the hourly rate holds, with a clear message", async () => {
    const u = await t.register();
    const tk = (await open(u.token)).body.data.ticket_id;
    let accepted = 0;
    let refusal: Awaited<ReturnType<typeof upload>> | undefined;
    for (let round = 0; !refusal && round < TICKET_UPLOADS_PER_HOUR; round++) {
      const ids: number[] = [];
      for (let i = 0; i < 3 && !refusal; i++) {
        const r = await upload(u.token, PNG);
        if (r.body.code === "SUCCESS") ids.push(r.body.data.id);
        else refusal = r;
      }
      accepted += ids.length;
      if (ids.length) {
        const sent = await t.api("POST", `/user/ticket/${tk}/reply`, {
          token: u.token,
          body: { content: "截图", attachments: ids },
        });
        expect(sent.body.code).toBe("SUCCESS");
      }
    }
    expect(accepted).toBe(TICKET_UPLOADS_PER_HOUR);
    expect([refusal?.status, refusal?.body.code]).toEqual([403, 2001]);
    expect(refusal?.body.msg).toMatch(
      new RegExp(`^每小时最多上传 ${TICKET_UPLOADS_PER_HOUR} 张图片，请 \\d+ 分钟后再试$`),
    );
    expect(await filesOf(u.uid)).toHaveLength(TICKET_UPLOADS_PER_HOUR);
    // An hour after those uploads the customer may upload again.
    await t.db
      .updateTable("ticket_attachments")
      .set({ created_at: new Date(Date.now() - HOUR - 1000).toISOString() })
      .where("uid", "=", u.uid)
      .execute();
    expect((await upload(u.token, PNG)).body.code).toBe("SUCCESS");
  });

  it("a storage quota over all of a customer's images, attached or not", async () => {
    const u = await t.register();
    await earlierImages(u, TICKET_STORAGE_QUOTA_BYTES - 2 * PNG.length);
    expect((await upload(u.token, PNG)).body.code).toBe("SUCCESS");
    expect((await upload(u.token, PNG)).body.code).toBe("SUCCESS"); // exactly the quota now
    const over = await upload(u.token, PNG);
    expect([over.status, over.body.code]).toEqual([403, 2001]);
    expect(over.body.msg).toBe(
      `工单图片已达每个账户 ${TICKET_STORAGE_QUOTA_BYTES / 1024 / 1024} MB 的上限，不能再上传；请用文字描述问题`,
    );
    expect(await filesOf(u.uid)).toHaveLength(2);
  });

  it("30 uploads at once: exactly the pending cap is stored (counted under the customer's lock)", async () => {
    const u = await t.register();
    const results = await Promise.all(Array.from({ length: 30 }, () => upload(u.token, PNG)));
    const ok = results.filter((r) => r.body.code === "SUCCESS");
    expect(ok).toHaveLength(MAX_PENDING_UPLOADS);
    for (const r of results.filter((x) => x.body.code !== "SUCCESS")) {
      expect([r.status, r.body.code]).toEqual([403, 2001]);
      expect(r.body.msg).toContain("未提交的图片过多");
    }
    const rows = await t.db.selectFrom("ticket_attachments").select("file").where("uid", "=", u.uid).execute();
    expect(rows).toHaveLength(MAX_PENDING_UPLOADS);
    expect((await filesOf(u.uid)).sort()).toEqual(rows.map((r) => r.file).sort());
  });

  it("uploads at once near the quota: never more than the quota is stored", async () => {
    const u = await t.register();
    await earlierImages(u, TICKET_STORAGE_QUOTA_BYTES - 3 * PNG.length);
    const results = await Promise.all(Array.from({ length: 12 }, () => upload(u.token, PNG)));
    expect(results.filter((r) => r.body.code === "SUCCESS")).toHaveLength(3);
    const sum = await t.db
      .selectFrom("ticket_attachments")
      .select((eb) => eb.fn.sum<number>("size").as("n"))
      .where("uid", "=", u.uid)
      .executeTakeFirstOrThrow();
    expect(Number(sum.n)).toBe(TICKET_STORAGE_QUOTA_BYTES);
    expect(await filesOf(u.uid)).toHaveLength(3);
  });

  it("refuses every upload while the data directory's free space is below UPLOAD_MIN_FREE_MB, writing nothing", async () => {
    const u = await t.register();
    const config = t.ctx.config;
    const floor = config.UPLOAD_MIN_FREE_MB;
    const st = await fs.statfs(config.DATA_DIR);
    // A floor above what the disk has free: the state of a nearly full disk.
    config.UPLOAD_MIN_FREE_MB = Math.ceil((st.bavail * st.bsize) / 1024 / 1024) + 1024;
    try {
      const r = await upload(u.token, PNG);
      expect([r.status, r.body.code]).toEqual([403, 2001]);
      expect(r.body.msg).toBe("服务器存储空间不足，暂时不能上传图片，请稍后再试");
    } finally {
      config.UPLOAD_MIN_FREE_MB = floor;
    }
    expect(await t.db.selectFrom("ticket_attachments").select("id").where("uid", "=", u.uid).execute()).toEqual([]);
    expect(await filesOf(u.uid)).toEqual([]);
    expect((await upload(u.token, PNG)).body.code).toBe("SUCCESS");
  });
});

describe("ticket caps under concurrency (issue 30 §7)", () => {
  it(`30 new tickets at once leave exactly ${MAX_OPEN_TICKETS} open`, async () => {
    const u = await t.register();
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => open(u.token, { title: `并发 ${i}` })));
    expect(results.filter((r) => r.body.code === "SUCCESS")).toHaveLength(MAX_OPEN_TICKETS);
    for (const r of results.filter((x) => x.body.code !== "SUCCESS")) {
      expect([r.status, r.body.code]).toEqual([403, 2001]);
      expect(r.body.msg).toBe(`最多同时有 ${MAX_OPEN_TICKETS} 个未结束的工单`);
    }
    const rows = await t.db.selectFrom("tickets").select("status").where("uid", "=", u.uid).execute();
    expect(rows.map((r) => r.status)).toEqual(Array(MAX_OPEN_TICKETS).fill(2));
    // Ending one makes room for exactly one more.
    const first = (await t.api<Paged<TicketRow>>("GET", "/user/ticket", { token: u.token })).body.data.list[0];
    await t.api("POST", `/user/ticket/${first.ticket_id}/close`, { token: u.token });
    const again = await Promise.all([open(u.token), open(u.token)]);
    expect(again.map((r) => r.body.code).sort()).toEqual([2001, "SUCCESS"]);
  });

  it("10 appeals at once for one locked tunnel leave exactly one open appeal", async () => {
    const u = await t.register();
    await setPlan(t, u.uid, { bandwidth: 10 });
    const tun = await createTestTunnel(t, u.token, { node_id: node.node_id });
    await t.api("PATCH", "/super/tun", { token: admin, body: { tun_id: tun.tun_id, status: 3, banned_reason: "x" } });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => open(u.token, { category: "appeal", tun_id: tun.tun_id, title: "申诉" })),
    );
    const ok = results.filter((r) => r.body.code === "SUCCESS");
    expect(ok).toHaveLength(1);
    for (const r of results.filter((x) => x.body.code !== "SUCCESS")) {
      expect([r.status, r.body.code]).toEqual([403, 2001]);
      expect(r.body.msg).toBe(`该隧道已有处理中的申诉（工单 #${ok[0].body.data.ticket_id}）`);
    }
    const appeals = await t.db
      .selectFrom("tickets")
      .select("id")
      .where("tun_id", "=", tun.tun_id)
      .where("category", "=", "appeal")
      .execute();
    expect(appeals).toHaveLength(1);
  });
});

describe("uploads never sent", () => {
  const HOUR = 3600_000;
  const dir = () => path.resolve(t.ctx.config.DATA_DIR, "uploads", "tickets");
  const fileOf = async (id: number) =>
    (await t.db.selectFrom("ticket_attachments").select("file").where("id", "=", id).executeTakeFirstOrThrow()).file;
  const age = (ids: number[], hours: number) =>
    t.db
      .updateTable("ticket_attachments")
      .set({ created_at: new Date(Date.now() - hours * HOUR).toISOString() })
      .where("id", "in", ids)
      .execute();
  const exists = (file: string) =>
    fs.access(path.join(dir(), file)).then(
      () => true,
      () => false,
    );

  it("are deleted after 24 hours, row and file, by the hourly job: the customer can upload again", async () => {
    const u = await t.register();
    const other = await t.register();
    // One image sent in a ticket, then the unsent cap filled by a form abandoned.
    const sent = (await upload(u.token, PNG)).body.data.id;
    expect((await open(u.token, { attachments: [sent] })).body.code).toBe("SUCCESS");
    const unsent: number[] = [];
    for (let i = 0; i < MAX_PENDING_UPLOADS; i++) unsent.push((await upload(u.token, PNG)).body.data.id);
    expect((await upload(u.token, PNG)).status).toBe(403);
    const unsentFiles = await Promise.all(unsent.map(fileOf));
    // Another customer's upload of 23 hours is still within its day.
    const recent = (await upload(other.token, PNG)).body.data.id;
    await age([sent, ...unsent], 25);
    await age([recent], 23);

    const job = ticketJobs.find((j) => j.name === "tickets.unsent-uploads");
    expect(job?.everyMs).toBe(HOUR);
    expect(await job?.run(t.ctx)).toBeGreaterThanOrEqual(MAX_PENDING_UPLOADS);

    const left = await t.db
      .selectFrom("ticket_attachments")
      .select("id")
      .where("id", "in", [sent, recent, ...unsent])
      .execute();
    expect(left.map((r) => r.id).sort((a, b) => a - b)).toEqual([sent, recent].sort((a, b) => a - b));
    for (const f of unsentFiles) expect(await exists(f)).toBe(false);
    expect(await exists(await fileOf(sent))).toBe(true);
    expect(await exists(await fileOf(recent))).toBe(true);
    expect((await getFile(unsent[0], u.token)).statusCode).toBe(404);
    expect((await getFile(sent, u.token)).statusCode).toBe(200);
    // The cap counts what is left: uploads are taken again, and a deleted one cannot be sent.
    expect((await upload(u.token, PNG)).body.code).toBe("SUCCESS");
    const stale = await open(u.token, { attachments: [unsent[1]] });
    expect([stale.status, stale.body.code]).toEqual([400, 10000]);
    expect(stale.body.msg).toContain("attachments");
    // Run again: nothing more to delete for these customers.
    await job?.run(t.ctx);
    expect(
      await t.db.selectFrom("ticket_attachments").select("id").where("id", "in", [sent, recent]).execute(),
    ).toHaveLength(2);
  });
});
