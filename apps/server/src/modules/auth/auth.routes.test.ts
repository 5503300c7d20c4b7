import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, nextPhone, type TestApp } from "../../../test/harness";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("SMS codes", () => {
  it("sends a 6-digit code and refuses a second one within a minute (429)", async () => {
    const phone = nextPhone();
    const a = await t.api("POST", "/auth/sms", { body: { phone, scene: "register" } });
    expect(a.body.code).toBe("SUCCESS");
    expect(t.sms.last(phone)).toMatch(/^\d{6}$/);
    const b = await t.api("POST", "/auth/sms", { body: { phone, scene: "register" } });
    expect(b.status).toBe(429);
    expect(b.body.code).toBe(2029);
  });

  it("names the bad field with 400/10000", async () => {
    const r = await t.api("POST", "/auth/sms", { body: { phone: "123", scene: "register" } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(10000);
    expect(r.body.msg).toContain("phone");
    expect(r.body.data).toEqual({ field: "phone" });
    const s = await t.api("POST", "/auth/sms", { body: { phone: nextPhone(), scene: "hack" } });
    expect(s.body.code).toBe(10000);
    expect(s.body.msg).toContain("scene");
  });

  it("limits codes per IP", async () => {
    const results: number[] = [];
    for (let i = 0; i < 31; i++) {
      const r = await t.api("POST", "/auth/sms", {
        body: { phone: nextPhone(), scene: "register" },
        ip: "203.0.113.9",
      });
      results.push(r.status);
    }
    expect(results).toContain(429);
  });
});

describe("register", () => {
  it("registers with a valid code, gives the free plan, and the code is single use", async () => {
    const phone = nextPhone();
    await t.api("POST", "/auth/sms", { body: { phone, scene: "register" } });
    const code = t.sms.last(phone);
    const r = await t.api<{ token: string }>("POST", "/auth/register", {
      body: { phone, code, password: "password-1" },
    });
    expect(r.body.code).toBe("SUCCESS");
    expect(r.body.data.token).toBeTruthy();
    const again = await t.api("POST", "/auth/register", { body: { phone: nextPhone(), code, password: "password-1" } });
    expect(again.body.code).toBe(10000);
    const info = await t.api<{ uid: number; role: number; personal_info: { phone_number: string } }>(
      "GET",
      "/user/userInfo",
      { token: r.body.data.token },
    );
    expect(info.body.data.personal_info.phone_number).toBe(phone);
    expect(info.body.data.role).toBe(1);
    const subs = await t.db.selectFrom("subscriptions").selectAll().where("uid", "=", info.body.data.uid).execute();
    expect(subs).toHaveLength(1);
    expect(subs[0].status).toBe(1);
  });

  it("rejects a wrong code, a short password and an unknown invite code, creating nothing", async () => {
    const phone = nextPhone();
    await t.api("POST", "/auth/sms", { body: { phone, scene: "register" } });
    const code = t.sms.last(phone);
    const wrong = await t.api("POST", "/auth/register", {
      body: { phone, code: code === "000000" ? "111111" : "000000", password: "password-1" },
    });
    expect(wrong.body.code).toBe(10000);
    expect(wrong.body.msg).toContain("code");
    const short = await t.api("POST", "/auth/register", { body: { phone, code, password: "short" } });
    expect(short.body.code).toBe(10000);
    expect(short.body.msg).toContain("password");
    const invite = await t.api("POST", "/auth/register", {
      body: { phone, code, password: "password-1", invite_code: "NOPE1234" },
    });
    expect(invite.body.code).toBe(10000);
    expect(invite.body.msg).toContain("invite_code");
    const users = await t.db.selectFrom("users").select("uid").where("phone", "=", phone).execute();
    expect(users).toHaveLength(0);
  });

  it("records the referrer of a valid invite code", async () => {
    const inviter = await t.register();
    const info = await t.api<{ invite_code: string }>("GET", "/user/userInfo", { token: inviter.token });
    const phone = nextPhone();
    await t.api("POST", "/auth/sms", { body: { phone, scene: "register" } });
    const r = await t.api("POST", "/auth/register", {
      body: { phone, code: t.sms.last(phone), password: "password-1", invite_code: info.body.data.invite_code },
    });
    expect(r.body.code).toBe("SUCCESS");
    const row = await t.db
      .selectFrom("users")
      .select("referrer_uid")
      .where("phone", "=", phone)
      .executeTakeFirstOrThrow();
    expect(row.referrer_uid).toBe(inviter.uid);
  });

  it("expires codes after five minutes", async () => {
    const phone = nextPhone();
    await t.api("POST", "/auth/sms", { body: { phone, scene: "register" } });
    await t.db
      .updateTable("sms_codes")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("phone", "=", phone)
      .execute();
    const r = await t.api("POST", "/auth/register", {
      body: { phone, code: t.sms.last(phone), password: "password-1" },
    });
    expect(r.body.code).toBe(10000);
  });
});

describe("login", () => {
  it("signs in with phone and password and records the login", async () => {
    const u = await t.register();
    const token = await t.login(u.phone, u.password);
    const list = await t.api<{ total: number; list: { ip: string }[] }>("GET", "/user/loginList", { token });
    expect(list.body.data.total).toBe(2);
  });

  it("answers a wrong password with 400 and locks after five failures (429)", async () => {
    const u = await t.register();
    for (let i = 0; i < 5; i++) {
      const r = await t.api("POST", "/auth/login", { body: { phone: u.phone, password: "wrong-password" } });
      expect(r.status).toBe(400);
    }
    const locked = await t.api("POST", "/auth/login", { body: { phone: u.phone, password: u.password } });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe(2029);
  });
});

describe("sessions", () => {
  it("answers 30001 without a token or with a garbage one", async () => {
    const a = await t.api("GET", "/user/userInfo");
    expect(a.status).toBe(401);
    expect(a.body.code).toBe(30001);
    const b = await t.api("GET", "/user/userInfo", { token: "not.a.jwt" });
    expect(b.body.code).toBe(30001);
  });

  it("answers 30002 for an expired token", async () => {
    const { SignJWT } = await import("jose");
    const u = await t.register();
    const session = await t.db.selectFrom("sessions").select("id").where("uid", "=", u.uid).executeTakeFirstOrThrow();
    const expired = await new SignJWT({ sid: session.id })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(String(u.uid))
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(t.ctx.jwtKey);
    const r = await t.api("GET", "/user/userInfo", { token: expired });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe(30002);
  });

  it("revokes the session on logout (30003)", async () => {
    const u = await t.register();
    const out = await t.api("POST", "/auth/logout", { token: u.token });
    expect(out.body.code).toBe("SUCCESS");
    const r = await t.api("GET", "/user/userInfo", { token: u.token });
    expect(r.body.code).toBe(30003);
  });

  it("resets a password by SMS and revokes every session", async () => {
    const u = await t.register();
    await t.api("POST", "/auth/sms", { body: { phone: u.phone, scene: "reset" } });
    const r = await t.api("POST", "/auth/reset", {
      body: { phone: u.phone, code: t.sms.last(u.phone), password: "new-password-9" },
    });
    expect(r.body.code).toBe("SUCCESS");
    expect((await t.api("GET", "/user/userInfo", { token: u.token })).body.code).toBe(30003);
    await t.login(u.phone, "new-password-9");
  });
});

/**
 * Issue 30 §10: no call tells a stranger whether a phone has an account. Every scene's code is
 * sent to any phone with the same answer, and the calls that take a code check it before they
 * look the phone up: a wrong code is answered byte for byte alike for a customer's phone and an
 * unknown one; only the code's holder hears "registered" or "no account".
 */
describe("whether a phone has an account is told only to the holder of its code", () => {
  let ipSeq = 0;
  /** The answer as a client sees it, less what differs per request (its date and request id). */
  async function answer(url: string, body: unknown, token?: string) {
    const res = await t.app.inject({
      method: "POST",
      url: `/api${url}`,
      payload: body as object,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      remoteAddress: `192.0.2.${++ipSeq}`,
    });
    const { date: _date, "x-request-id": _id, ...headers } = res.headers;
    return { status: res.statusCode, headers, payload: res.payload };
  }
  /** A customer's phone, as if registered long ago (its sign-up code's one-a-minute limit has passed). */
  async function customerPhone() {
    const { phone } = await t.register();
    await t.ctx.limiter.reset(`sms:phone1m:${phone}:register`);
    return phone;
  }
  const sentTo = (phone: string) => t.sms.sent.filter((m) => m.phone === phone).length;
  /** A six-digit code that is neither phone's last one. */
  const wrongCode = (...phones: string[]) =>
    ["000000", "111111", "222222"].find((c) => phones.every((p) => t.sms.last(p) !== c)) as string;

  it("sends a code in every scene to a customer's phone and to an unknown one, answering alike", async () => {
    for (const scene of ["register", "reset", "login", "phone"]) {
      const known = await customerPhone();
      const unknown = nextPhone();
      const before = [sentTo(known), sentTo(unknown)];
      const a = await answer("/auth/sms", { phone: known, scene });
      const b = await answer("/auth/sms", { phone: unknown, scene });
      expect(a, scene).toEqual(b);
      expect(JSON.parse(a.payload).code, scene).toBe("SUCCESS");
      // The same work behind both answers: a code stored and sent.
      expect([sentTo(known), sentTo(unknown)], scene).toEqual([before[0] + 1, before[1] + 1]);
      expect(t.sms.sent.at(-1)?.scene).toBe(scene);
    }
  });

  it("registers: a wrong code is answered alike; the right one for a customer's phone says it is registered", async () => {
    const known = await customerPhone();
    const unknown = nextPhone();
    for (const phone of [known, unknown])
      expect((await answer("/auth/sms", { phone, scene: "register" })).status).toBe(200);
    const code = wrongCode(known, unknown);
    const a = await answer("/auth/register", { phone: known, code, password: "password-1" });
    const b = await answer("/auth/register", { phone: unknown, code, password: "password-1" });
    expect(a).toEqual(b);
    expect(JSON.parse(a.payload)).toMatchObject({ code: 10000, data: { field: "code" } });
    // With no code asked for at all, alike too.
    const c = await answer("/auth/register", { phone: (await t.register()).phone, code, password: "password-1" });
    const d = await answer("/auth/register", { phone: nextPhone(), code, password: "password-1" });
    expect(c).toEqual(d);
    const taken = await answer("/auth/register", { phone: known, code: t.sms.last(known), password: "password-1" });
    expect([taken.status, JSON.parse(taken.payload).code]).toEqual([409, 40008]);
    expect(JSON.parse(taken.payload).msg).toContain("已注册");
  });

  it("resets: a wrong code is answered alike; the right one for an unknown phone finds no account", async () => {
    const known = (await t.register()).phone;
    const unknown = nextPhone();
    for (const phone of [known, unknown])
      expect((await answer("/auth/sms", { phone, scene: "reset" })).status).toBe(200);
    const code = wrongCode(known, unknown);
    const a = await answer("/auth/reset", { phone: known, code, password: "password-2" });
    const b = await answer("/auth/reset", { phone: unknown, code, password: "password-2" });
    expect(a).toEqual(b);
    expect(JSON.parse(a.payload)).toMatchObject({ code: 10000, data: { field: "code" } });
    const none = await answer("/auth/reset", { phone: unknown, code: t.sms.last(unknown), password: "password-2" });
    expect(none.status).toBe(404);
  });

  it("moves a customer's phone: a wrong code is answered alike for a taken number and a free one", async () => {
    const u = await t.register();
    const taken = (await t.register()).phone;
    const free = nextPhone();
    for (const phone of [taken, free]) expect((await answer("/auth/sms", { phone, scene: "phone" })).status).toBe(200);
    const code = wrongCode(taken, free);
    const a = await answer("/user/phone", { phone: taken, code }, u.token);
    const b = await answer("/user/phone", { phone: free, code }, u.token);
    expect(a).toEqual(b);
    expect(JSON.parse(a.payload)).toMatchObject({ code: 10000, data: { field: "code" } });
    const used = await answer("/user/phone", { phone: taken, code: t.sms.last(taken) }, u.token);
    expect([used.status, JSON.parse(used.payload).code]).toEqual([409, 40008]);
  });
});

describe("errors", () => {
  it("answers malformed JSON with 400/10000 and unknown API paths with 404", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { "content-type": "application/json" },
      payload: "{bad",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(10000);
    const nf = await t.api("GET", "/nope");
    expect(nf.status).toBe(404);
  });
});
