import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, nextPhone, type TestApp } from "../../../test/harness";

// Issue 19 §2: the lockout used to peek the counters, run argon2, and only then count the failure,
// so 60 concurrent wrong passwords were all evaluated. These tests flood the API concurrently.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const randomIp = () => `10.${[...randomBytes(3)].join(".")}`;
const wrongLogin = (app: TestApp, phone: string, ip?: string) =>
  app.api("POST", "/auth/login", { body: { phone, password: "wrong-password" }, ...(ip && { ip }) });

/** 60 concurrent wrong passwords for one phone: at most five argon2 checks, the rest 429 unchecked. */
async function floodOnePhone(app: TestApp, phone: string, password: string, ip?: () => string) {
  const before = app.ctx.passwords.stats.verifications;
  const res = await Promise.all(Array.from({ length: 60 }, () => wrongLogin(app, phone, ip?.())));
  expect(app.ctx.passwords.stats.verifications - before).toBeLessThanOrEqual(5);
  expect(res.filter((r) => r.status === 400)).toHaveLength(5);
  const limited = res.filter((r) => r.status === 429);
  expect(limited).toHaveLength(55);
  for (const r of limited) expect(r.body.code).toBe(2029);
  // Locked for the window: even the right password is not evaluated.
  const locked = await app.api("POST", "/auth/login", { body: { phone, password }, ...(ip && { ip: ip() }) });
  expect(locked.status).toBe(429);
}

describe("login lockout under concurrency", () => {
  it("evaluates at most five of 60 concurrent wrong passwords for one phone", async () => {
    const u = await t.register();
    await floodOnePhone(t, u.phone, u.password);
  });

  it("evaluates at most thirty concurrent wrong passwords from one IP, across phones", async () => {
    const users = await Promise.all(Array.from({ length: 12 }, () => t.register()));
    const ip = randomIp();
    const before = t.ctx.passwords.stats.verifications;
    const res = await Promise.all(
      Array.from({ length: 60 }, (_, i) => wrongLogin(t, users[i % users.length].phone, ip)),
    );
    expect(t.ctx.passwords.stats.verifications - before).toBeLessThanOrEqual(30);
    expect(res.filter((r) => r.status === 400)).toHaveLength(30);
    expect(res.filter((r) => r.status === 429)).toHaveLength(30);
    const ok = await t.api("POST", "/auth/login", { body: { phone: users[0].phone, password: users[0].password }, ip });
    expect(ok.status).toBe(429);
  });

  it("a correct password clears the phone's failures and successes never lock an address", async () => {
    const u = await t.register();
    const ip = randomIp();
    const others = await Promise.all(Array.from({ length: 35 }, () => t.register()));
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 4; i++) expect((await wrongLogin(t, u.phone, ip)).status).toBe(400);
      const ok = await t.api("POST", "/auth/login", { body: { phone: u.phone, password: u.password }, ip });
      expect(ok.body.code).toBe("SUCCESS");
    }
    // 35 good sign-ins from one address (a shared NAT), seven at a time, are all let through:
    // a success takes its hit back, so only failures (and attempts in flight) fill the IP's thirty.
    for (let i = 0; i < others.length; i += 7) {
      const res = await Promise.all(
        others
          .slice(i, i + 7)
          .map((o) => t.api("POST", "/auth/login", { body: { phone: o.phone, password: o.password }, ip })),
      );
      expect(res.map((r) => r.body.code)).toEqual(Array(7).fill("SUCCESS"));
    }
  });
});

describe("password change", () => {
  it("checks the old password under the sign-in limits: a stolen session cannot guess it faster", async () => {
    const u = await t.register();
    const before = t.ctx.passwords.stats.verifications;
    const res = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.api("POST", "/user/password", {
          token: u.token,
          body: { old_password: "guess-guess", password: "another-pass-1" },
        }),
      ),
    );
    expect(t.ctx.passwords.stats.verifications - before).toBeLessThanOrEqual(5);
    expect(res.filter((r) => r.status === 400)).toHaveLength(5);
    expect(res.filter((r) => r.status === 429)).toHaveLength(15);
    // One budget with sign-in: the phone is now locked there too.
    const locked = await t.api("POST", "/auth/login", { body: { phone: u.phone, password: u.password } });
    expect(locked.status).toBe(429);
  });
});

describe("argon2 concurrency cap", () => {
  it("refuses sign-ins beyond the running + queued argon2 work quickly with 429, without counting them", async () => {
    const small = await createTestApp({ ARGON2_CONCURRENCY: "1", ARGON2_QUEUE: "2" });
    try {
      // Forty accounts sharing one password hash (registering each would run argon2 forty times).
      const first = await small.register();
      const row = await small.db.selectFrom("users").selectAll().where("uid", "=", first.uid).executeTakeFirstOrThrow();
      const users = [first];
      for (let i = 0; i < 39; i++) {
        const phone = nextPhone();
        const { uid: _uid, ...rest } = row;
        await small.db
          .insertInto("users")
          .values({
            ...rest,
            phone,
            frp_token: randomBytes(8).toString("hex"),
            invite_code: `T${randomBytes(4).toString("hex")}`,
          })
          .execute();
        users.push({ ...first, phone });
      }
      const res = await Promise.all(
        users.map((u) => small.api("POST", "/auth/login", { body: { phone: u.phone, password: u.password } })),
      );
      const ok = res.filter((r) => r.body.code === "SUCCESS").length;
      const busy = res.filter((r) => r.status === 429 && r.body.code === 2029).length;
      expect(ok + busy).toBe(40);
      expect(ok).toBeGreaterThanOrEqual(1);
      expect(busy).toBeGreaterThanOrEqual(10);
      expect(small.ctx.passwords.stats.refused).toBe(busy);
      expect(small.ctx.passwords.stats.verifications).toBe(ok);
      // The refused attempts were not counted as failures: every one of them signs in afterwards.
      for (const u of users) await small.login(u.phone, u.password);
    } finally {
      await small.close();
    }
  });
});

describe("SMS codes under concurrency", () => {
  it("compares at most five of 60 concurrent guesses, and the code is then spent", async () => {
    const phone = nextPhone();
    await t.api("POST", "/auth/sms", { body: { phone, scene: "register" } });
    const code = t.sms.last(phone);
    const wrong = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0");
    const res = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        t.api("POST", "/auth/register", { body: { phone, code: wrong(i), password: "password-1" } }),
      ),
    );
    for (const r of res) expect(r.body.code).toBe(10000);
    expect(res.filter((r) => r.body.msg.includes("验证码错误"))).toHaveLength(5);
    const row = await t.db
      .selectFrom("sms_codes")
      .select("attempts")
      .where("phone", "=", phone)
      .executeTakeFirstOrThrow();
    expect(row.attempts).toBe(5);
    const late = await t.api("POST", "/auth/register", { body: { phone, code, password: "password-1" } });
    expect(late.body.code).toBe(10000);
    expect(await t.db.selectFrom("users").select("uid").where("phone", "=", phone).execute()).toHaveLength(0);
  });

  it("lets a correct code through exactly once among concurrent uses", async () => {
    const u = await t.register();
    await t.api("POST", "/auth/sms", { body: { phone: u.phone, scene: "reset" } });
    const code = t.sms.last(u.phone);
    const res = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        t.api("POST", "/auth/reset", { body: { phone: u.phone, code, password: `new-password-${i}` } }),
      ),
    );
    expect(res.filter((r) => r.body.code === "SUCCESS")).toHaveLength(1);
  });
});

describe("lockout with the Redis-backed limiter", () => {
  it("evaluates at most five of 60 concurrent wrong passwords", async () => {
    const url = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
    const r = await createTestApp({ REDIS_URL: url });
    try {
      // Counters in Redis outlive this process: use fresh addresses so reruns do not collide.
      const phone = `13${randomBytes(5).readUInt32BE() % 1e9}`.padEnd(11, "7");
      await r.api("POST", "/auth/sms", { body: { phone, scene: "register" }, ip: randomIp() });
      const reg = await r.api("POST", "/auth/register", {
        body: { phone, code: r.sms.last(phone), password: "password-123" },
        ip: randomIp(),
      });
      expect(reg.body.code).toBe("SUCCESS");
      await floodOnePhone(r, phone, "password-123", randomIp);
    } finally {
      await r.close();
    }
  });
});

describe("password sign-in answers alike for a phone without an account", () => {
  // Issue 30 §10: an unknown phone skipped argon2, so the answer came five times sooner and its
  // timing told which phones have an account. Each attempt now runs exactly one verification.
  it("runs one argon2 verification for an unknown phone, as for a registered one", async () => {
    const u = await t.register();
    const unknown = nextPhone();
    for (const phone of [u.phone, unknown]) {
      const before = t.ctx.passwords.stats.verifications;
      const res = await wrongLogin(t, phone, randomIp());
      expect(res.status).toBe(400);
      expect(t.ctx.passwords.stats.verifications - before).toBe(1);
    }
    const [known, stranger] = await Promise.all([
      wrongLogin(t, u.phone, randomIp()),
      wrongLogin(t, unknown, randomIp()),
    ]);
    expect(stranger.body).toEqual(known.body);
  });
});
