import type { AdminNodeDetail, AdminTicketDetail, Paged, TicketDetail, TicketRow, ViewInfo } from "@burrow/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestTunnel, setPlan } from "../../../test/frp-fixtures";
import type { TestApp } from "../../../test/harness";
import { PNG, ticketSuite } from "../../../test/ticket-fixtures";
import { MAX_PENDING_UPLOADS } from "./attachments";
import { MAX_OPEN_TICKETS } from "./tickets.service";

/* A customer's tickets, the state machine, and the open-ticket cap under concurrency. */

const suite = ticketSuite();
const { upload, getFile, open } = suite;
let t: TestApp;
let admin: string;
let support: string;
let node: AdminNodeDetail;
beforeAll(() => {
  ({ t, admin, support, node } = suite.get());
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
