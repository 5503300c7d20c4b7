import { ErrorCode, type MfaChallengeData, type RecoveryCodes, Role, type TotpEnrolment } from "@burrow/contract";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestApp, type TestApp } from "../../../test/harness";
import { TOTP_STEP_SEC, totpCode } from "./totp";

// Two-factor sign-in (issue 34 §1) through the HTTP API. The clock is ours: only Date is faked, so
// each test places itself at the start of a 30-second step and moves from step to step.

const STEP_MS = TOTP_STEP_SEC * 1000;
let clock = 0;
/** Sets the clock `steps` steps after the start of the tests' first step (plus a few seconds). */
const at = (steps: number) => {
  vi.setSystemTime(clock + steps * STEP_MS + 3_000);
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

const startClock = () => {
  vi.useFakeTimers({ toFake: ["Date"] });
  clock = Math.floor(Date.now() / STEP_MS) * STEP_MS;
  at(0);
};

/** A customer with TOTP on: its secret and recovery codes. */
async function withTotp() {
  const u = await t.register();
  const start = await t.api<TotpEnrolment>("POST", "/user/mfa/totp", { token: u.token });
  expect(start.body.code).toBe("SUCCESS");
  const secret = start.body.data.secret;
  const confirm = await t.api<RecoveryCodes>("POST", "/user/mfa/totp/confirm", {
    token: u.token,
    body: { code: totpCode(secret) },
  });
  expect(confirm.body.code).toBe("SUCCESS");
  return { ...u, secret, recovery: confirm.body.data.recovery_codes };
}

const login = (phone: string, password: string, ip?: string) =>
  t.api<MfaChallengeData>("POST", "/auth/login", { body: { phone, password }, ...(ip && { ip }) });

async function challengeOf(phone: string, password: string, ip?: string): Promise<string> {
  const r = await login(phone, password, ip);
  expect(r.status).toBe(401);
  expect(r.body.code).toBe(ErrorCode.SecondFactorRequired);
  expect(r.body.data.setup).toBe(false);
  return r.body.data.challenge;
}

const second = (challenge: string, code: string, ip?: string) =>
  t.api<{ token: string }>("POST", "/auth/mfa", { body: { challenge, code }, ...(ip && { ip }) });

describe("enabling TOTP", () => {
  it("takes effect only once confirmed with a code, and answers ten recovery codes once", async () => {
    startClock();
    const u = await t.register();
    const start = await t.api<TotpEnrolment>("POST", "/user/mfa/totp", { token: u.token });
    expect(start.body.data.uri).toMatch(/^otpauth:\/\/totp\/Burrow%3A\d+\?secret=[A-Z2-7]{32}&issuer=Burrow/);
    // Pending: the password alone still signs in, and the status says off.
    expect((await login(u.phone, u.password)).body.code).toBe("SUCCESS");
    const off = await t.api<{ totp_enabled: boolean }>("GET", "/user/mfa", { token: u.token });
    expect(off.body.data.totp_enabled).toBe(false);

    const wrong = await t.api("POST", "/user/mfa/totp/confirm", { token: u.token, body: { code: "000000" } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toMatch(/^code: /);
    const bad = await t.api("POST", "/user/mfa/totp/confirm", { token: u.token, body: { code: "12ab" } });
    expect([bad.status, bad.body.code]).toEqual([400, 10000]);

    const ok = await t.api<RecoveryCodes>("POST", "/user/mfa/totp/confirm", {
      token: u.token,
      body: { code: totpCode(start.body.data.secret) },
    });
    expect(ok.body.data.recovery_codes).toHaveLength(10);
    expect(new Set(ok.body.data.recovery_codes).size).toBe(10);
    const on = await t.api<{ totp_enabled: boolean; recovery_codes_left: number }>("GET", "/user/mfa", {
      token: u.token,
    });
    expect(on.body.data).toMatchObject({ totp_enabled: true, recovery_codes_left: 10, required: false });
    // Stored sealed and hashed: neither the secret nor a code is in the database as such.
    const row = await t.db
      .selectFrom("totp_factors")
      .select("secret")
      .where("uid", "=", u.uid)
      .executeTakeFirstOrThrow();
    expect(row.secret).not.toContain(start.body.data.secret);
    const hashes = await t.db.selectFrom("recovery_codes").select("code_hash").where("uid", "=", u.uid).execute();
    expect(hashes.map((h) => h.code_hash)).not.toContain(ok.body.data.recovery_codes[0]);
    // A second enrolment over a confirmed one is refused.
    expect((await t.api("POST", "/user/mfa/totp", { token: u.token })).body.code).toBe(ErrorCode.BusinessRefused);
  });
});

describe("signing in with TOTP", () => {
  it("needs the code after the password; the challenge is no session; a replayed code is refused", async () => {
    startClock();
    const u = await withTotp();
    at(1);
    const challenge = await challengeOf(u.phone, u.password);
    // The challenge reaches nothing else.
    const asSession = await t.api("GET", "/user/userInfo", { token: challenge });
    expect(asSession.status).toBe(401);
    // Wrong code: refused, naming the field.
    const wrong = await second(challenge, "123456" === totpCode(u.secret) ? "654321" : "123456");
    expect([wrong.status, wrong.body.msg.startsWith("code:")]).toEqual([400, true]);

    const ok = await second(challenge, totpCode(u.secret));
    expect(ok.body.code).toBe("SUCCESS");
    expect((await t.api("GET", "/user/userInfo", { token: ok.body.data.token })).body.code).toBe("SUCCESS");
    // The challenge is spent.
    at(2);
    const again = await second(challenge, totpCode(u.secret));
    expect(again.status).toBe(400);
    expect(again.body.msg).toMatch(/^challenge: /);

    // The same code within its step, on a new challenge: refused as used.
    at(1);
    const replay = await second(await challengeOf(u.phone, u.password), totpCode(u.secret));
    expect(replay.status).toBe(400);
    expect(replay.body.msg).toContain("已使用过");
    // The previous step's code (±1 step of now) is older than the one used: refused too.
    at(2);
    const older = await second(await challengeOf(u.phone, u.password), totpCode(u.secret, clock + STEP_MS));
    expect(older.status).toBe(400);
    // The next step's code is accepted, one step late.
    at(3);
    const late = await second(await challengeOf(u.phone, u.password), totpCode(u.secret, clock + 2 * STEP_MS + 3000));
    expect(late.body.code).toBe("SUCCESS");
    // Two steps late: out of the window.
    at(6);
    const stale = await second(await challengeOf(u.phone, u.password), totpCode(u.secret, clock + 4 * STEP_MS));
    expect(stale.status).toBe(400);
  });

  it("accepts each recovery code once", async () => {
    startClock();
    const u = await withTotp();
    const code = u.recovery[3] as string;
    const ok = await second(await challengeOf(u.phone, u.password), code.toUpperCase());
    expect(ok.body.code).toBe("SUCCESS");
    const twice = await second(await challengeOf(u.phone, u.password), code);
    expect(twice.status).toBe(400);
    const left = await t.api<{ recovery_codes_left: number }>("GET", "/user/mfa", { token: ok.body.data.token });
    expect(left.body.data.recovery_codes_left).toBe(9);
  });

  it("locks the second step after five wrong codes, the right one included, until the window passes", async () => {
    startClock();
    const u = await withTotp();
    at(1);
    const challenge = await challengeOf(u.phone, u.password);
    const right = totpCode(u.secret);
    const wrongCode = right === "111111" ? "222222" : "111111";
    const res = await Promise.all(Array.from({ length: 8 }, () => second(challenge, wrongCode)));
    expect(res.filter((r) => r.status === 400)).toHaveLength(5);
    expect(res.filter((r) => r.status === 429)).toHaveLength(3);
    const locked = await second(challenge, right);
    expect([locked.status, locked.body.code]).toEqual([429, ErrorCode.RateLimited]);
    // The lock is the account's, not the address's or the challenge's: a new sign-in is locked too.
    expect((await second(await challengeOf(u.phone, u.password), right)).status).toBe(429);
    // Fifteen minutes later the account may try again.
    at(32);
    expect((await second(await challengeOf(u.phone, u.password), totpCode(u.secret))).body.code).toBe("SUCCESS");
  });

  it("regenerates the recovery codes with a current code (the old ones stop working), and turns off", async () => {
    startClock();
    const u = await withTotp();
    at(1);
    const token = (await second(await challengeOf(u.phone, u.password), totpCode(u.secret))).body.data.token;
    at(2);
    const regen = await t.api<RecoveryCodes>("POST", "/user/mfa/recovery-codes", {
      token,
      body: { code: totpCode(u.secret) },
    });
    expect(regen.body.data.recovery_codes).toHaveLength(10);
    expect((await second(await challengeOf(u.phone, u.password), u.recovery[0] as string)).status).toBe(400);

    // Off: the password (wrong → refused, naming it), or a current code.
    const badPass = await t.api("POST", "/user/mfa/totp/disable", { token, body: { password: "not-it-123" } });
    expect([badPass.status, badPass.body.msg.startsWith("password:")]).toEqual([400, true]);
    const neither = await t.api("POST", "/user/mfa/totp/disable", { token, body: {} });
    expect([neither.status, neither.body.code]).toEqual([400, 10000]);
    const off = await t.api("POST", "/user/mfa/totp/disable", { token, body: { password: u.password } });
    expect(off.body.code).toBe("SUCCESS");
    expect((await login(u.phone, u.password)).body.code).toBe("SUCCESS");
    expect(await t.db.selectFrom("recovery_codes").select("id").where("uid", "=", u.uid).execute()).toEqual([]);
  });
});

describe("the staff requirement (STAFF_MFA_REQUIRED)", () => {
  let s: TestApp;
  beforeAll(async () => {
    s = await createTestApp({ STAFF_MFA_REQUIRED: "1" });
  });
  afterAll(() => s.close());

  it("signs a Manager without TOTP in only through enrolment; customers are not asked", async () => {
    startClock();
    const { ADMIN_PHONE, ADMIN_PASSWORD } = await import("../../../test/harness");
    const first = await s.api<MfaChallengeData>("POST", "/auth/login", {
      body: { phone: ADMIN_PHONE, password: ADMIN_PASSWORD },
    });
    expect([first.status, first.body.code, first.body.data.setup]).toEqual([401, ErrorCode.SecondFactorRequired, true]);
    const setupChallenge = first.body.data.challenge;
    // The setup challenge is not a second-step challenge, nor a session.
    expect((await s.api("POST", "/auth/mfa", { body: { challenge: setupChallenge, code: "123456" } })).status).toBe(
      400,
    );
    expect((await s.api("GET", "/super/settings", { token: setupChallenge })).status).toBe(401);

    const enrol = await s.api<TotpEnrolment>("POST", "/auth/mfa/setup", { body: { challenge: setupChallenge } });
    const done = await s.api<{ token: string; recovery_codes: string[] }>("POST", "/auth/mfa/setup/confirm", {
      body: { challenge: setupChallenge, code: totpCode(enrol.body.data.secret) },
    });
    expect(done.body.data.recovery_codes).toHaveLength(10);
    const token = done.body.data.token;
    const settings = await s.api<{ security: { staff_mfa_required: boolean } }>("GET", "/super/settings", { token });
    expect(settings.body.data.security.staff_mfa_required).toBe(true);
    // Required: it cannot be turned off.
    const off = await s.api("POST", "/user/mfa/totp/disable", { token, body: { password: ADMIN_PASSWORD } });
    expect(off.body.code).toBe(ErrorCode.BusinessRefused);
    // From now on the Manager signs in with the code.
    at(1);
    const next = await s.api<MfaChallengeData>("POST", "/auth/login", {
      body: { phone: ADMIN_PHONE, password: ADMIN_PASSWORD },
    });
    expect(next.body.data.setup).toBe(false);
    const ok = await s.api("POST", "/auth/mfa", {
      body: { challenge: next.body.data.challenge, code: totpCode(enrol.body.data.secret) },
    });
    expect(ok.body.code).toBe("SUCCESS");

    const customer = await s.register();
    expect(
      (await s.api("POST", "/auth/login", { body: { phone: customer.phone, password: customer.password } })).body.code,
    ).toBe("SUCCESS");

    // Promoted to support staff, the customer's sessions end: the staff rule is met at the next
    // sign-in (enrolment), not skipped by a session from before the promotion.
    expect((await s.api("GET", "/user/userInfo", { token: customer.token })).body.code).toBe("SUCCESS");
    const promote = await s.api("PATCH", "/super/user/info", {
      token,
      body: { uid: customer.uid, role: Role.Support },
    });
    expect(promote.body.code).toBe("SUCCESS");
    expect((await s.api("GET", "/super/user/list", { token: customer.token })).status).toBe(401);
    const again = await s.api<MfaChallengeData>("POST", "/auth/login", {
      body: { phone: customer.phone, password: customer.password },
    });
    expect([again.body.code, again.body.data.setup]).toEqual([ErrorCode.SecondFactorRequired, true]);
  });
});
