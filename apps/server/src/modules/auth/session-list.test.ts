import { ErrorCode, type NoticeView, type Paged, type SessionInfo } from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, nextPhone, type TestApp } from "../../../test/harness";
import { dispatchOutbox } from "../../shared/outbox-dispatch";

// The account's sessions (issue 34 §1): the list, revoking one or all others, the new-device notice.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const FIREFOX_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const CHROME_WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

const signIn = async (phone: string, password: string, ua: string, ip: string) => {
  const r = await t.api<{ token: string }>("POST", "/auth/login", {
    body: { phone, password },
    headers: { "user-agent": ua },
    ip,
  });
  expect(r.body.code).toBe("SUCCESS");
  return r.body.data.token;
};
const sessions = (token: string) => t.api<SessionInfo[]>("GET", "/user/sessions", { token });

describe("the session list", () => {
  it("lists the devices with the current one marked; revoking one ends that session's next call", async () => {
    const u = await t.register();
    const a = await signIn(u.phone, u.password, FIREFOX_LINUX, "203.0.113.7");
    const b = await signIn(u.phone, u.password, CHROME_WINDOWS, "198.51.100.20");
    const list = await sessions(a);
    expect(list.body.data).toHaveLength(3);
    const [first] = list.body.data;
    expect(first).toMatchObject({ current: true, device: "Firefox · Linux", ip: "203.0.113.7" });
    expect(list.body.data.filter((s) => s.current)).toHaveLength(1);
    const other = list.body.data.find((s) => s.device === "Chrome · Windows");
    expect(other).toMatchObject({ ip: "198.51.100.20", current: false });

    expect((await t.api("DELETE", `/user/sessions/${other?.id}`, { token: a })).body.code).toBe("SUCCESS");
    const dead = await t.api("GET", "/user/userInfo", { token: b });
    expect([dead.status, dead.body.code]).toEqual([401, ErrorCode.SessionRevoked]);
    expect((await sessions(a)).body.data.map((s) => s.device)).not.toContain("Chrome · Windows");
  });

  it("revokes every other session, keeping the caller's", async () => {
    const u = await t.register();
    const a = await signIn(u.phone, u.password, FIREFOX_LINUX, "203.0.113.8");
    const b = await signIn(u.phone, u.password, CHROME_WINDOWS, "198.51.100.21");
    expect((await t.api("POST", "/user/sessions/revoke-others", { token: a })).body.code).toBe("SUCCESS");
    expect((await t.api("GET", "/user/userInfo", { token: b })).status).toBe(401);
    expect((await t.api("GET", "/user/userInfo", { token: u.token })).status).toBe(401);
    const left = await sessions(a);
    expect(left.body.data.map((s) => s.current)).toEqual([true]);
  });

  it("a customer cannot revoke another customer's session (404, and it still works)", async () => {
    const [u, v] = [await t.register(), await t.register()];
    const theirs = (await sessions(v.token)).body.data[0]?.id;
    const r = await t.api("DELETE", `/user/sessions/${theirs}`, { token: u.token });
    expect([r.status, r.body.code]).toEqual([404, ErrorCode.NotFound]);
    expect((await t.api("GET", "/user/userInfo", { token: v.token })).body.code).toBe("SUCCESS");
  });
});

describe("the new-device notice", () => {
  // The notification centre is its one channel (docs/notices.md): no assistant conversation too.
  const noticesOf = async (token: string) =>
    (await t.api<Paged<NoticeView>>("GET", "/user/notice", { token })).body.data.list.filter(
      (n) => n.type === "auth.new_device",
    );

  it("tells the customer once about a sign-in from a device not seen before, not about a known one", async () => {
    const phone = nextPhone();
    const u = await t.api("POST", "/auth/sms", { body: { phone, scene: "register" } });
    expect(u.body.code).toBe("SUCCESS");
    const reg = await t.api<{ token: string }>("POST", "/auth/register", {
      body: { phone: phone, code: t.sms.last(phone), password: "pass-word-123" },
      headers: { "user-agent": FIREFOX_LINUX },
      ip: "203.0.113.9",
    });
    expect(reg.body.code).toBe("SUCCESS");
    const token = reg.body.data.token;
    // Same browser family on the same /24: the registration's device.
    await signIn(phone, "pass-word-123", FIREFOX_LINUX, "203.0.113.200");
    await dispatchOutbox(t.ctx);
    expect(await noticesOf(token)).toHaveLength(0);
    // Another browser: a new device, told once, also when the same device signs in again.
    await signIn(phone, "pass-word-123", CHROME_WINDOWS, "198.51.100.30");
    await signIn(phone, "pass-word-123", CHROME_WINDOWS, "198.51.100.31");
    await dispatchOutbox(t.ctx);
    const [notice, ...more] = await noticesOf(token);
    expect(more).toEqual([]);
    expect(notice.title).toBe("登录提醒：新设备登录");
    expect(notice.body).toContain("Chrome · Windows，IP 198.51.100.30");
    // Delivered again (at least once): still one notice.
    await t.db.updateTable("outbox_deliveries").set({ status: "pending" }).execute();
    await dispatchOutbox(t.ctx);
    expect(await noticesOf(token)).toHaveLength(1);
    const chats = await t.api<unknown[]>("GET", "/user/assistant/conversation", { token });
    expect(chats.body.data).toEqual([]);
  });
});
