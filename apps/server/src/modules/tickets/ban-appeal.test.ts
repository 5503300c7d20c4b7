import {
  type AdminTicketDetail,
  type AdminTicketRow,
  type BanAppealView,
  type BannedData,
  ErrorCode,
  type Paged,
  type TicketAttachmentView,
  type TicketDetail,
} from "@burrow/contract";
import { describe, expect, it } from "vitest";
import { adminSuite } from "../../../test/admin-fixtures";
import type { TestApp } from "../../../test/harness";
import { registeredScopes } from "../../http/route";

/**
 * A banned customer (issue 35 §11): told the ban and its reason (30005) when signing in or calling
 * with a session, and given an appeal session that opens and follows one ban appeal and reaches
 * nothing else; staff handle the appeal in the ticket queue.
 */
let t: TestApp;
let admin: string;

adminSuite((ready) => ({ t, admin } = ready));

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000100" +
    "05fe02fea72d7d0000000049454e44ae426082",
  "hex",
);

async function upload(token: string, url: string) {
  const boundary = "----burrowappeal";
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    PNG,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({
    method: "POST",
    url: `/api${url}`,
    headers: { authorization: `Bearer ${token}`, "content-type": `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  return res.json() as { code: string | number; msg: string; data: TicketAttachmentView };
}

const getFile = (token: string, url: string) =>
  t.app.inject({ method: "GET", url: `/api${url}`, headers: { authorization: `Bearer ${token}` } });

const setStatus = (uid: number, status: 1 | -1, ban_reason?: string) =>
  t.api("PATCH", "/super/user/info", { token: admin, body: { uid, status, ...(ban_reason && { ban_reason }) } });

/** Signs in to a banned account: the 30005 answer, whose data carries the appeal session. */
async function appealSignIn(phone: string, password: string) {
  const r = await t.api<BannedData>("POST", "/auth/login", { body: { phone, password } });
  expect([r.status, r.body.code]).toEqual([403, ErrorCode.AccountBanned]);
  return { res: r, token: r.body.data.appeal?.token ?? "" };
}

/** A customer, banned with `reason`, and their appeal session. */
async function bannedCustomer(reason = "发布违规内容") {
  const u = await t.register();
  expect((await setStatus(u.uid, -1, reason)).body.code).toBe("SUCCESS");
  const { token } = await appealSignIn(u.phone, u.password);
  return { ...u, appeal: token };
}

describe("a banned customer", () => {
  it("calling with the session they had is told the ban and its reason, not 登录已失效", async () => {
    const u = await t.register();
    await setStatus(u.uid, -1, "发布违规内容");
    const r = await t.api<BannedData>("GET", "/user/userInfo", { token: u.token });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe(ErrorCode.AccountBanned);
    expect(r.body.msg).toBe("账号已被封禁：发布违规内容");
    // The old session stays revoked: it carries no appeal session and opens nothing.
    expect(r.body.data).toEqual({ ban_reason: "发布违规内容" });
    const again = await t.api("GET", "/user/appeal", { token: u.token });
    expect(again.body.code).toBe(ErrorCode.AccountBanned);
  });

  it("signing in gets 30005 with the reason and an appeal session; a wrong password gets neither", async () => {
    const u = await t.register();
    await setStatus(u.uid, -1, "欠费逃单");
    const wrong = await t.api<BannedData | null>("POST", "/auth/login", {
      body: { phone: u.phone, password: "wrong-password-1" },
    });
    expect([wrong.status, wrong.body.code]).toEqual([400, ErrorCode.InvalidParams]);
    expect(JSON.stringify(wrong.body)).not.toContain("欠费逃单");
    const { res, token } = await appealSignIn(u.phone, u.password);
    expect(res.body.msg).toBe("账号已被封禁：欠费逃单");
    expect(res.body.data.ban_reason).toBe("欠费逃单");
    expect(token).not.toBe("");
    const view = await t.api<BanAppealView>("GET", "/user/appeal", { token });
    expect(view.body.code).toBe("SUCCESS");
    expect(view.body.data).toEqual({ ban_reason: "欠费逃单", ticket: null, can_open: true, next_open_at: null });
  });

  it("with the appeal session reaches no endpoint but the appeal's", async () => {
    const u = await bannedCustomer();
    const others = [...registeredScopes.entries()].filter(([, scope]) => scope !== "appeal");
    expect(others.length).toBeGreaterThan(100);
    for (const [key] of others) {
      const [method, url] = key.split(" ") as [string, string];
      const r = await t.api(method, url.replace(/:\w+/g, "1"), { token: u.appeal });
      expect([key, r.status, r.body.code]).toEqual([key, 403, ErrorCode.NoPermission]);
    }
    // Logging out is public and ends the appeal session.
    expect((await t.api("POST", "/auth/logout", { token: u.appeal })).body.code).toBe("SUCCESS");
    const after = await t.api("GET", "/user/appeal", { token: u.appeal });
    expect(after.body.code).toBe(ErrorCode.AccountBanned);
  });

  it("opens one appeal, follows it, and staff see it in the queue", async () => {
    const u = await bannedCustomer("刷单");
    const bad = await t.api("POST", "/user/appeal", { token: u.appeal, body: { content: "  " } });
    expect([bad.status, bad.body.code, bad.body.msg.startsWith("content:")]).toEqual([400, 10000, true]);
    expect((await t.api<BanAppealView>("GET", "/user/appeal", { token: u.appeal })).body.data.ticket).toBeNull();

    const img = await upload(u.appeal, "/user/appeal/attachment");
    expect(img.code).toBe("SUCCESS");
    const opened = await t.api<BanAppealView>("POST", "/user/appeal", {
      token: u.appeal,
      body: { content: "我没有刷单，请核实", attachments: [img.data.id] },
    });
    expect(opened.body.code).toBe("SUCCESS");
    const ticket = opened.body.data.ticket as TicketDetail;
    expect(ticket).toMatchObject({ title: "账号封禁申诉", category: "appeal", tun_id: null, status: 2 });
    expect(opened.body.data.can_open).toBe(false);
    expect((await getFile(u.appeal, `/user/appeal/attachment/${img.data.id}`)).statusCode).toBe(200);

    const second = await t.api("POST", "/user/appeal", { token: u.appeal, body: { content: "再来一个" } });
    expect([second.status, second.body.code, second.body.msg]).toEqual([
      403,
      2001,
      "已有处理中的申诉，请在申诉中补充说明",
    ]);

    const queue = await t.api<Paged<AdminTicketRow>>("GET", "/super/ticket", {
      token: admin,
      query: { category: "appeal", uid: u.uid },
    });
    expect(queue.body.data.list.map((r) => r.ticket_id)).toEqual([ticket.ticket_id]);
    const staff = await t.api<AdminTicketDetail>("GET", `/super/ticket/${ticket.ticket_id}`, { token: admin });
    expect(staff.body.data.customer.status).toBe(-1);
    expect(staff.body.data.messages[0]?.attachments.map((a) => a.id)).toEqual([img.data.id]);
    await t.api("POST", `/super/ticket/${ticket.ticket_id}/reply`, {
      token: admin,
      body: { content: "请提供订单截图" },
    });

    const seen = await t.api<BanAppealView>("GET", "/user/appeal", { token: u.appeal });
    expect(seen.body.data.ticket?.messages.map((m) => [m.staff, m.content])).toEqual([
      [false, "我没有刷单，请核实"],
      [true, "请提供订单截图"],
    ]);
    const replied = await t.api<BanAppealView>("POST", "/user/appeal/reply", {
      token: u.appeal,
      body: { content: "截图如下" },
    });
    expect(replied.body.data.ticket?.status).toBe(2);

    // Staff end it: no new appeal for BAN_APPEAL_RETRY_HOURS, and no reply to the ended one.
    await t.api("POST", `/super/ticket/${ticket.ticket_id}/close`, { token: admin, body: { content: "维持封禁" } });
    const ended = await t.api<BanAppealView>("GET", "/user/appeal", { token: u.appeal });
    expect(ended.body.data.can_open).toBe(false);
    expect(Date.parse(ended.body.data.next_open_at ?? "")).toBeGreaterThan(Date.now() + 23 * 3600_000);
    const retry = await t.api("POST", "/user/appeal", { token: u.appeal, body: { content: "再申诉" } });
    expect([retry.status, retry.body.msg]).toEqual([403, "上一次申诉刚结束，请稍后再提交新的申诉"]);
    const late = await t.api("POST", "/user/appeal/reply", { token: u.appeal, body: { content: "x" } });
    expect([late.status, late.body.msg]).toEqual([403, "没有处理中的申诉"]);
  });

  it("opens one appeal when several are sent at once", async () => {
    const u = await bannedCustomer();
    const all = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        t.api("POST", "/user/appeal", { token: u.appeal, body: { content: `申诉 ${i}` } }),
      ),
    );
    expect(all.filter((r) => r.body.code === "SUCCESS").length).toBe(1);
    const n = await t.db
      .selectFrom("tickets")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("uid", "=", u.uid)
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(1);
  });

  it("cannot read its other tickets' images through the appeal", async () => {
    const u = await t.register();
    const img = await upload(u.token, "/user/ticket/attachment");
    const tk = await t.api<TicketDetail>("POST", "/user/ticket", {
      token: u.token,
      body: { title: "旧工单", category: "other", content: "旧", attachments: [img.data.id] },
    });
    expect(tk.body.code).toBe("SUCCESS");
    await setStatus(u.uid, -1, "违规");
    const { token } = await appealSignIn(u.phone, u.password);
    expect((await getFile(token, `/user/appeal/attachment/${img.data.id}`)).statusCode).toBe(404);
    expect((await getFile(token, `/user/ticket/attachment/${img.data.id}`)).statusCode).toBe(403);
  });
});

describe("the appeal session", () => {
  it("cannot be had by an account that is not banned", async () => {
    const u = await t.register();
    const login = await t.api<{ token: string }>("POST", "/auth/login", {
      body: { phone: u.phone, password: u.password },
    });
    expect(login.body.code).toBe("SUCCESS");
    const scoped = await t.db.selectFrom("sessions").select("scope").where("uid", "=", u.uid).execute();
    expect(scoped.map((s) => s.scope)).toEqual([null, null]);
    // A console session may call the appeal endpoints, which refuse an account in good standing.
    for (const [method, url] of [
      ["GET", "/user/appeal"],
      ["POST", "/user/appeal"],
    ] as const) {
      const r = await t.api(method, url, { token: login.body.data.token, body: { content: "想申诉" } });
      expect([r.status, r.body.code, r.body.msg]).toEqual([403, 2001, "账号未被封禁，无需申诉"]);
    }
    const up = await upload(login.body.data.token, "/user/appeal/attachment");
    expect(up.msg).toBe("账号未被封禁，无需申诉");
  });

  it("ends when the ban does: unban turns it away, and a normal sign-in works again", async () => {
    const u = await bannedCustomer();
    expect((await t.api("POST", "/user/appeal", { token: u.appeal, body: { content: "请解封" } })).body.code).toBe(
      "SUCCESS",
    );
    await setStatus(u.uid, 1);
    const r = await t.api("GET", "/user/appeal", { token: u.appeal });
    expect([r.status, r.body.code, r.body.msg]).toEqual([401, ErrorCode.SessionRevoked, "账号已解除封禁，请重新登录"]);
    // Still not a console session either.
    expect((await t.api("GET", "/user/userInfo", { token: u.appeal })).body.code).toBe(ErrorCode.SessionRevoked);
    const token = await t.login(u.phone, u.password);
    expect((await t.api("GET", "/user/userInfo", { token })).body.code).toBe("SUCCESS");
    // Banned again: the old appeal session was revoked with the rest, the ban is named again.
    await setStatus(u.uid, -1, "再次违规");
    const old = await t.api("GET", "/user/appeal", { token: u.appeal });
    expect([old.body.code, old.body.msg]).toEqual([ErrorCode.AccountBanned, "账号已被封禁：再次违规"]);
  });
});
