import { createHmac, createSecretKey } from "node:crypto";
import { Role, UserStatus } from "@burrow/contract";
import { SignJWT } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestApp, type TestApp } from "../../../test/harness";
import { adminOf } from "../../../test/store-fixtures";
import { resetPassword } from "../../cli/reset-password";
import { createEventBus } from "../../shared/events";
import { EventedCache, LoadingCache } from "../../shared/loading-cache";
import { SESSION_TTL_MS } from "./session-cache";
import { issueSession } from "./sessions";
import { TokenCache, verifyToken } from "./tokens";

/*
 * Sessions and users are kept in memory (session-cache.ts, users/user-cache.ts): these tests hold
 * the cache to what the database says — every revocation refused on the very next request, forged
 * tokens refused, sizes bounded — on SQLite and PostgreSQL (TEST_DB).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
afterEach(() => vi.restoreAllMocks());

const userInfo = (token: string) => t.api("GET", "/user/userInfo", { token });
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
const now = () => Math.floor(Date.now() / 1000);

/** A customer whose token is warm in the caches (answered once already). */
async function warm() {
  const u = await t.register();
  expect((await userInfo(u.token)).status).toBe(200);
  expect((await userInfo(u.token)).status).toBe(200);
  return u;
}

describe("token verification (node:crypto, as jose checks)", () => {
  const key = createSecretKey(Buffer.from("k".repeat(48)));
  const sign = (header: object, payload: object, k = key) => {
    const input = `${b64(header)}.${b64(payload)}`;
    return `${input}.${createHmac("sha256", k).update(input).digest("base64url")}`;
  };
  const good = { sub: "42", sid: "s1", iat: now(), exp: now() + 600 };

  it("accepts what jose signs, and what jose refuses it refuses", async () => {
    const jose = await new SignJWT({ sid: "s1" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("42")
      .setIssuedAt()
      .setExpirationTime(now() + 600)
      .sign(key);
    expect(verifyToken(jose, key)).toEqual({ uid: 42, sid: "s1", exp: now() + 600 });
    expect(verifyToken(sign({ alg: "HS256", typ: "JWT" }, good), key)).toMatchObject({ uid: 42, sid: "s1" });
  });

  it("refuses alg none, other algorithms, crit and unencoded payloads", () => {
    expect(verifyToken(`${b64({ alg: "none" })}.${b64(good)}.`, key)).toBe("invalid");
    expect(verifyToken(`${b64({ alg: "none" })}.${b64(good)}.${"A".repeat(43)}`, key)).toBe("invalid");
    expect(verifyToken(sign({ alg: "HS512" }, good), key)).toBe("invalid");
    expect(verifyToken(sign({ alg: "hs256" }, good), key)).toBe("invalid");
    expect(verifyToken(sign({ alg: "HS256", crit: ["exp"], exp: 1 }, good), key)).toBe("invalid");
    expect(verifyToken(sign({ alg: "HS256", b64: false }, good), key)).toBe("invalid");
    expect(verifyToken(sign({}, good), key)).toBe("invalid");
  });

  it("refuses a tampered payload, a foreign key, a non-canonical signature and malformed tokens", () => {
    const token = sign({ alg: "HS256" }, good);
    const [h, , s] = token.split(".");
    expect(verifyToken(`${h}.${b64({ ...good, sub: "1" })}.${s}`, key)).toBe("invalid");
    expect(verifyToken(sign({ alg: "HS256" }, good, createSecretKey(Buffer.from("x".repeat(48)))), key)).toBe(
      "invalid",
    );
    // The last character of a 43-character signature carries 2 unused bits: another letter decodes the same.
    const last = s!.at(-1)!;
    const twin = `${s!.slice(0, -1)}${String.fromCharCode(last.charCodeAt(0) ^ 1)}`;
    expect(verifyToken(`${h}.${token.split(".")[1]}.${twin}`, key)).toBe("invalid");
    expect(verifyToken(`${token}=`, key)).toBe("invalid");
    expect(verifyToken(`${token}.x`, key)).toBe("invalid");
    expect(verifyToken("a.b", key)).toBe("invalid");
    expect(verifyToken(sign({ alg: "HS256" }, [1, 2]), key)).toBe("invalid");
    expect(verifyToken(`${b64({ alg: "HS256" })}.${Buffer.from("not json").toString("base64url")}.x`, key)).toBe(
      "invalid",
    );
  });

  it("checks exp (expired only once the signature holds), nbf, iat and our own claims", () => {
    expect(verifyToken(sign({ alg: "HS256" }, { ...good, exp: now() - 1 }), key)).toBe("expired");
    expect(verifyToken(sign({ alg: "HS256" }, { ...good, exp: now() }), key)).toBe("expired");
    const forged = sign({ alg: "HS256" }, { ...good, exp: now() - 1 }, createSecretKey(Buffer.from("y".repeat(48))));
    expect(verifyToken(forged, key)).toBe("invalid");
    expect(verifyToken(sign({ alg: "HS256" }, { ...good, exp: undefined }), key)).toBe("invalid");
    expect(verifyToken(sign({ alg: "HS256" }, { ...good, exp: String(now() + 60) }), key)).toBe("invalid");
    expect(verifyToken(sign({ alg: "HS256" }, { ...good, nbf: now() + 60 }), key)).toBe("invalid");
    expect(verifyToken(sign({ alg: "HS256" }, { ...good, nbf: now() - 60 }), key)).toMatchObject({ uid: 42 });
    expect(verifyToken(sign({ alg: "HS256" }, { ...good, iat: "yesterday" }), key)).toBe("invalid");
    for (const sub of [undefined, 42, "0", "-1", "1e3", " 42", "abc"])
      expect(verifyToken(sign({ alg: "HS256" }, { ...good, sub }), key), String(sub)).toBe("invalid");
    for (const sid of [undefined, "", 7])
      expect(verifyToken(sign({ alg: "HS256" }, { ...good, sid }), key), String(sid)).toBe("invalid");
  });

  it("keeps at most its cap of verified tokens, never a refused one, and lets a cached one expire", () => {
    const cache = new TokenCache(key, 3);
    const tokens = [1, 2, 3, 4, 5].map((n) => sign({ alg: "HS256" }, { ...good, sub: String(n) }));
    for (const tok of tokens) expect(cache.verify(tok)).toMatchObject({ sid: "s1" });
    expect(cache.size).toBe(3);
    expect(cache.verify(`${tokens[0]}x`)).toBe("invalid");
    expect(cache.size).toBe(3);
    const short = sign({ alg: "HS256" }, { ...good, exp: now() + 2 });
    expect(cache.verify(short)).toMatchObject({ uid: 42 });
    expect(cache.verify(short, Date.now() + 3000)).toBe("expired");
  });
});

describe("the caches under them", () => {
  it("a loading cache is bounded, and a load that raced with a change is not stored", async () => {
    let version = 0;
    const cache = new LoadingCache(async (k: number) => `${k}:${version}`, 60_000, 3);
    for (const k of [1, 2, 3, 4]) await cache.get(k);
    expect(cache.size).toBe(3);
    expect(cache.peek(1)).toBeUndefined();
    const racing = cache.get(9);
    version = 1;
    cache.invalidate(9);
    expect(await racing).toBe("9:0");
    expect(await cache.get(9)).toBe("9:1");
  });

  it("an evented cache reads through while the bus is not live, and starts over on a resync", async () => {
    const listeners: (() => void)[] = [];
    const bus = { live: true, onResync: (l: () => void) => listeners.push(l) };
    let loads = 0;
    const cache = new EventedCache(async (_k: number) => ++loads, 60_000, 10, bus);
    expect(await cache.get(1)).toBe(1);
    expect(await cache.get(1)).toBe(1);
    bus.live = false;
    expect(await cache.get(1)).toBe(2);
    expect(await cache.get(1)).toBe(3);
    bus.live = true;
    expect(await cache.get(1)).toBe(1);
    for (const l of listeners) l();
    expect(await cache.get(1)).toBe(4);
  });

  it("the session cache holds no more sessions than its cap", async () => {
    const { SessionCache } = await import("./session-cache");
    const cache = new SessionCache(t.db, createEventBus(), t.ctx.jwtKey, { maxSessions: 2 });
    for (let i = 0; i < 4; i++) {
      const { token } = await issueSession(t.ctx, 1, { ip: "127.0.0.1", userAgent: "test" });
      const claims = cache.tokens.verify(token);
      if (typeof claims === "string") throw new Error(claims);
      expect(await cache.session(claims.sid)).toMatchObject({ uid: 1, revoked: false });
    }
    expect(cache.stats().sessions).toBe(2);
  });
});

describe("every revocation takes effect on the very next request", () => {
  it("sign-out", async () => {
    const u = await warm();
    expect((await t.api("POST", "/auth/logout", { token: u.token })).body.code).toBe("SUCCESS");
    expect((await userInfo(u.token)).body.code).toBe(30003);
  });

  it("sign-out ends that session only", async () => {
    const u = await warm();
    const other = await t.login(u.phone, u.password);
    expect((await userInfo(other)).status).toBe(200);
    await t.api("POST", "/auth/logout", { token: u.token });
    expect((await userInfo(u.token)).body.code).toBe(30003);
    expect((await userInfo(other)).status).toBe(200);
  });

  it("a password change (every session, the current one too)", async () => {
    const u = await warm();
    const other = await t.login(u.phone, u.password);
    expect((await userInfo(other)).status).toBe(200);
    const r = await t.api("POST", "/user/password", {
      token: u.token,
      body: { old_password: u.password, password: "changed-password-1" },
    });
    expect(r.body.code).toBe("SUCCESS");
    expect((await userInfo(u.token)).body.code).toBe(30003);
    expect((await userInfo(other)).body.code).toBe(30003);
  });

  it("a ban, and the unban does not bring the old sessions back", async () => {
    const u = await warm();
    const admin = await adminOf(t);
    const ban = { uid: u.uid, status: UserStatus.Banned, ban_reason: "abuse" };
    expect((await t.api("PATCH", "/super/user/info", { token: admin, body: ban })).body.code).toBe("SUCCESS");
    expect((await userInfo(u.token)).body.code).toBe(30005);
    await t.api("PATCH", "/super/user/info", { token: admin, body: { uid: u.uid, status: UserStatus.Active } });
    expect((await userInfo(u.token)).body.code).toBe(30003);
  });

  it("a role change: promoted and demoted staff see it on their next request", async () => {
    const u = await warm();
    const admin = await adminOf(t);
    const list = () => t.api("GET", "/super/user/list", { token: u.token });
    expect((await list()).status).toBe(403);
    await t.api("PATCH", "/super/user/info", { token: admin, body: { uid: u.uid, role: Role.Support } });
    expect((await list()).status).toBe(200);
    expect((await userInfo(u.token)).body.data).toMatchObject({ role: Role.Support });
    await t.api("PATCH", "/super/user/info", { token: admin, body: { uid: u.uid, role: Role.Customer } });
    expect((await list()).status).toBe(403);
  });

  it("a password reset by SMS", async () => {
    const u = await warm();
    await t.api("POST", "/auth/sms", { body: { phone: u.phone, scene: "reset" } });
    const r = await t.api("POST", "/auth/reset", {
      body: { phone: u.phone, code: t.sms.last(u.phone), password: "reset-password-1" },
    });
    expect(r.body.code).toBe("SUCCESS");
    expect((await userInfo(u.token)).body.code).toBe(30003);
  });

  it("the command line's reset-password announced on the server's bus (in-process, or through Redis)", async () => {
    const u = await warm();
    await resetPassword(t.ctx, u.phone);
    expect((await userInfo(u.token)).body.code).toBe(30003);
  });

  it("a profile change shows on the next userInfo", async () => {
    const u = await warm();
    await t.api("PATCH", "/user/info", { token: u.token, body: { nickname: "fresh-name" } });
    expect((await userInfo(u.token)).body.data).toMatchObject({ nickname: "fresh-name" });
  });
});

describe("what no event can reach", () => {
  it("reset-password from another process without Redis is refused once the session TTL has passed", async () => {
    const u = await warm();
    // Its own bus, as `npm run admin` has without REDIS_URL: this server's caches hear nothing.
    const cliBus = createEventBus();
    await resetPassword({ db: t.db, events: cliBus }, u.phone);
    await cliBus.close();
    // Served from memory until the entry's TTL (±25%) runs out, then read again and refused.
    expect((await userInfo(u.token)).status).toBe(200);
    const later = Date.now() + SESSION_TTL_MS * 1.25 + 1;
    vi.spyOn(Date, "now").mockReturnValue(later);
    expect((await userInfo(u.token)).body.code).toBe(30003);
  });

  it("a demotion or ban whose event was lost (between processes) holds once the session TTL has passed", async () => {
    const u = await warm();
    const admin = await adminOf(t);
    await t.api("PATCH", "/super/user/info", { token: admin, body: { uid: u.uid, role: Role.Support } });
    const list = () => t.api("GET", "/super/user/list", { token: u.token });
    expect((await list()).status).toBe(200);
    // Straight to the database: another process's write whose event never came.
    await t.db.updateTable("users").set({ role: Role.Customer }).where("uid", "=", u.uid).execute();
    expect((await list()).status).toBe(200);
    const later = Date.now() + SESSION_TTL_MS * 1.25 + 1;
    vi.spyOn(Date, "now").mockReturnValue(later);
    expect((await list()).status).toBe(403);
    await t.db.updateTable("users").set({ status: UserStatus.Banned }).where("uid", "=", u.uid).execute();
    vi.spyOn(Date, "now").mockReturnValue(later + SESSION_TTL_MS * 1.25 + 1);
    expect((await userInfo(u.token)).body.code).toBe(30005);
  });

  it("with REDIS_URL set and Redis unreachable the caches are bypassed: a write nobody announced is seen at once", async () => {
    const r = await createTestApp({ REDIS_URL: "redis://127.0.0.1:1" });
    try {
      expect(r.ctx.events.live).toBe(false);
      const admin = await r.db
        .selectFrom("users")
        .select("uid")
        .where("role", "=", Role.Manager)
        .executeTakeFirstOrThrow();
      const { token } = await issueSession(r.ctx, admin.uid, { ip: "127.0.0.1", userAgent: "test" });
      const call = () => r.api("GET", "/user/userInfo", { token });
      expect((await call()).status).toBe(200);
      expect((await call()).status).toBe(200);
      // Straight to the database, as another process would while Redis cannot carry its event.
      await r.db.updateTable("sessions").set({ revoked_at: new Date().toISOString() }).execute();
      expect((await call()).body.code).toBe(30003);
      expect(r.ctx.sessions.stats().sessions).toBe(0);
      expect(r.ctx.userInfo.size).toBe(0);
    } finally {
      await r.close();
    }
  });
});

describe("forged tokens through the API", () => {
  it("refuses alg none, a tampered payload and an expired token", async () => {
    const u = await warm();
    const [h, p, s] = u.token.split(".") as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, "base64url").toString());
    const none = `${b64({ alg: "none" })}.${p}.`;
    expect((await userInfo(none)).body.code).toBe(30001);
    const other = `${h}.${b64({ ...claims, sub: "1" })}.${s}`;
    expect((await userInfo(other)).body.code).toBe(30001);
    const expired = await new SignJWT({ sid: claims.sid })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(String(u.uid))
      .setExpirationTime(now() - 10)
      .sign(t.ctx.jwtKey);
    expect((await userInfo(expired)).body.code).toBe(30002);
    // A token for another user's session is refused even though both are genuine.
    const admin = await adminOf(t);
    const adminSid = JSON.parse(Buffer.from(admin.split(".")[1]!, "base64url").toString()).sid;
    const crossed = await new SignJWT({ sid: adminSid })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(String(u.uid))
      .setExpirationTime(now() + 600)
      .sign(t.ctx.jwtKey);
    expect((await userInfo(crossed)).body.code).toBe(30003);
    expect((await userInfo(u.token)).status).toBe(200);
  });
});
