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

  it("refuses a register code for a phone that already has an account (40008)", async () => {
    const u = await t.register();
    const r = await t.api("POST", "/auth/sms", { body: { phone: u.phone, scene: "register" } });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe(40008);
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

  it("refuses a reset code for an unknown phone", async () => {
    const r = await t.api("POST", "/auth/sms", { body: { phone: nextPhone(), scene: "reset" } });
    expect(r.status).toBe(404);
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
