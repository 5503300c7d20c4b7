import { ErrorCode, type MfaChallengeData, type PasskeyInfo, type PasskeyOptions, Role } from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/harness";
import { type Overrides, SoftAuthenticator } from "../../../test/soft-authenticator";
import { direct } from "../../shared/tx";
import { updateUserRow } from "../users/users.repository";

// Passkeys (issue 34 §1) through the HTTP API, with a software authenticator (test/soft-authenticator.ts).
// The relying party is PUBLIC_URL's: https://console.example.com.

const ORIGIN = "https://console.example.com";
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: `${ORIGIN}/` });
});
afterAll(() => t.close());

type User = Awaited<ReturnType<TestApp["register"]>>;

async function registerPasskey(u: User, auth = new SoftAuthenticator(ORIGIN), name = "我的电脑") {
  const opts = await t.api<PasskeyOptions>("POST", "/user/passkeys/options", { token: u.token });
  expect(opts.body.code).toBe("SUCCESS");
  const r = await t.api<PasskeyInfo>("POST", "/user/passkeys", {
    token: u.token,
    body: { name, credential: auth.create(opts.body.data.options) },
  });
  expect(r.body).toMatchObject({ code: "SUCCESS" });
  return { auth, passkey: r.body.data };
}

/** The usernameless sign-in: options, then the authenticator's answer (with overrides). */
async function signIn(auth: SoftAuthenticator, o: Overrides = {}, headers?: Record<string, string>) {
  const opts = await t.api<PasskeyOptions>("POST", "/auth/passkey/options", { headers });
  expect(opts.body.code).toBe("SUCCESS");
  return t.api<{ token: string }>("POST", "/auth/passkey", {
    body: { credential: auth.get(opts.body.data.options, o) },
    headers,
  });
}

async function challengeOf(u: User): Promise<MfaChallengeData> {
  const r = await t.api<MfaChallengeData>("POST", "/auth/login", { body: { phone: u.phone, password: u.password } });
  expect([r.status, r.body.code]).toEqual([401, ErrorCode.SecondFactorRequired]);
  return r.body.data;
}

async function mfaOptions(challenge: string) {
  const r = await t.api<PasskeyOptions>("POST", "/auth/mfa/passkey/options", { body: { challenge } });
  expect(r.body.code).toBe("SUCCESS");
  return r.body.data.options;
}

const refusedWith = (r: { status: number; body: { code: unknown; msg: string } }, text: RegExp) => {
  expect(r.status).toBe(400);
  expect(r.body.code).toBe(10000);
  expect(r.body.msg).toMatch(text);
};

describe("registering and managing passkeys", () => {
  it("registers from a session, lists, renames, and signs in with it alone (no phone, no password)", async () => {
    const u = await t.register();
    const { auth, passkey } = await registerPasskey(u);
    expect(passkey).toMatchObject({ name: "我的电脑", transports: ["internal"], last_used_at: null });

    const opts = await t.api<PasskeyOptions>("POST", "/user/passkeys/options", { token: u.token });
    const o = opts.body.data.options as { rp: { id: string }; excludeCredentials: { id: string }[] };
    expect(o.rp.id).toBe("console.example.com");
    expect(o.excludeCredentials.map((c) => c.id)).toEqual([auth.id]);

    const renamed = await t.api("PATCH", `/user/passkeys/${passkey.id}`, { token: u.token, body: { name: "办公室" } });
    expect(renamed.body.code).toBe("SUCCESS");

    const r = await signIn(auth);
    expect(r.body.code).toBe("SUCCESS");
    const me = await t.api<{ uid: number }>("GET", "/user/userInfo", { token: r.body.data.token });
    expect(me.body.data.uid).toBe(u.uid);
    const list = await t.api<PasskeyInfo[]>("GET", "/user/passkeys", { token: u.token });
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({ name: "办公室" });
    expect(list.body.data[0]?.last_used_at).not.toBeNull();

    const logs = await t.db.selectFrom("audit_logs").selectAll().where("action", "=", "passkey.register").execute();
    expect(logs.filter((l) => l.target === `user:${u.uid}`)).toHaveLength(1);
  });

  it("refuses a bad name naming the field, and a registration answer for another session's challenge", async () => {
    const u = await t.register();
    const opts = await t.api<PasskeyOptions>("POST", "/user/passkeys/options", { token: u.token });
    const auth = new SoftAuthenticator(ORIGIN);
    const credential = auth.create(opts.body.data.options);
    const bad = await t.api("POST", "/user/passkeys", { token: u.token, body: { name: " ", credential } });
    refusedWith(bad, /name/);
    // The same account signed in elsewhere: the challenge belongs to the session that asked.
    const other = await t.api<{ token: string }>("POST", "/auth/login", {
      body: { phone: u.phone, password: u.password },
    });
    const stolen = await t.api("POST", "/user/passkeys", {
      token: other.body.data.token,
      body: { name: "x", credential },
    });
    refusedWith(stolen, /过期或已使用/);
    expect((await t.api<PasskeyInfo[]>("GET", "/user/passkeys", { token: u.token })).body.data).toEqual([]);
  });

  it("refuses a registration from another origin or for another RP ID, and a credential already registered", async () => {
    const u = await t.register();
    const evil = new SoftAuthenticator("https://evil.example.net");
    const o1 = await t.api<PasskeyOptions>("POST", "/user/passkeys/options", { token: u.token });
    refusedWith(
      await t.api("POST", "/user/passkeys", {
        token: u.token,
        body: { name: "x", credential: evil.create(o1.body.data.options) },
        // The request's own headers never stand for the origin.
        headers: { origin: "https://evil.example.net", "x-forwarded-host": "evil.example.net" },
      }),
      /来源网址/,
    );
    const o2 = await t.api<PasskeyOptions>("POST", "/user/passkeys/options", { token: u.token });
    const auth = new SoftAuthenticator(ORIGIN);
    refusedWith(
      await t.api("POST", "/user/passkeys", {
        token: u.token,
        body: { name: "x", credential: auth.create(o2.body.data.options, { rpId: "evil.example.net" }) },
      }),
      /不属于本站/,
    );
    const { auth: mine } = await registerPasskey(u);
    const v = await t.register();
    const o3 = await t.api<PasskeyOptions>("POST", "/user/passkeys/options", { token: v.token });
    const dup = await t.api("POST", "/user/passkeys", {
      token: v.token,
      body: { name: "x", credential: mine.create(o3.body.data.options) },
    });
    expect([dup.status, dup.body.msg]).toEqual([409, expect.stringMatching(/已经添加过/)]);
  });

  it("deletes with the password (a wrong one changes nothing), audited", async () => {
    const u = await t.register();
    const { passkey } = await registerPasskey(u);
    const wrong = await t.api("POST", `/user/passkeys/${passkey.id}/delete`, {
      token: u.token,
      body: { password: "not-the-password" },
    });
    refusedWith(wrong, /password/);
    expect((await t.api<PasskeyInfo[]>("GET", "/user/passkeys", { token: u.token })).body.data).toHaveLength(1);
    const none = await t.api("POST", `/user/passkeys/${passkey.id}/delete`, { token: u.token, body: {} });
    refusedWith(none, /code/);
    const ok = await t.api("POST", `/user/passkeys/${passkey.id}/delete`, {
      token: u.token,
      body: { password: u.password },
    });
    expect(ok.body.code).toBe("SUCCESS");
    expect((await t.api<PasskeyInfo[]>("GET", "/user/passkeys", { token: u.token })).body.data).toEqual([]);
    const logs = await t.db.selectFrom("audit_logs").selectAll().where("action", "=", "passkey.delete").execute();
    expect(logs.filter((l) => l.target === `user:${u.uid}`)).toHaveLength(1);
    // Another account's passkey is not found, whatever the password.
    const v = await t.register();
    const { passkey: theirs } = await registerPasskey(v);
    const cross = await t.api("POST", `/user/passkeys/${theirs.id}/delete`, {
      token: u.token,
      body: { password: u.password },
    });
    expect(cross.status).toBe(404);
  });
});

describe("signing in with a passkey", () => {
  it("refuses another origin, another RP ID, a replayed challenge and a counter that goes back", async () => {
    const u = await t.register();
    const { auth } = await registerPasskey(u);
    refusedWith(
      await signIn(auth, { origin: "https://evil.example.net" }, { origin: "https://evil.example.net" }),
      /来源网址/,
    );
    refusedWith(await signIn(auth, { rpId: "evil.example.net" }), /不属于本站/);

    const opts = await t.api<PasskeyOptions>("POST", "/auth/passkey/options");
    const first = await t.api<{ token: string }>("POST", "/auth/passkey", {
      body: { credential: auth.get(opts.body.data.options) },
    });
    expect(first.body.code).toBe("SUCCESS");
    // The same challenge again, with a fresh signature and a higher counter: spent.
    const replay = await t.api("POST", "/auth/passkey", { body: { credential: auth.get(opts.body.data.options) } });
    refusedWith(replay, /过期或已使用/);

    const stored = Number(
      (await t.db.selectFrom("passkeys").select("counter").where("uid", "=", u.uid).executeTakeFirstOrThrow()).counter,
    );
    expect(stored).toBeGreaterThan(0);
    refusedWith(await signIn(auth, { counter: stored }), /计数器/);
    refusedWith(await signIn(auth, { counter: stored - 1 }), /计数器/);
    // Nothing moved: the next honest assertion still passes.
    expect((await signIn(auth, { counter: stored + 1 })).body.code).toBe("SUCCESS");
  });

  it("needs user verification when the passkey is used alone, and refuses an unknown credential", async () => {
    const u = await t.register();
    const { auth } = await registerPasskey(u);
    refusedWith(await signIn(auth, { uv: false }), /验证身份/);
    refusedWith(await signIn(new SoftAuthenticator(ORIGIN)), /未在此账号登记/);
  });
});

describe("a passkey as the second factor", () => {
  it("asks for the second step after the password, and passes it with the passkey once", async () => {
    const u = await t.register();
    const { auth } = await registerPasskey(u);
    const c = await challengeOf(u);
    expect(c).toMatchObject({ setup: false, passkey: true, totp: false });
    const credential = auth.get(await mfaOptions(c.challenge));
    const r = await t.api<{ token: string }>("POST", "/auth/mfa/passkey", {
      body: { challenge: c.challenge, credential },
    });
    expect(r.body.code).toBe("SUCCESS");
    expect((await t.api("GET", "/user/userInfo", { token: r.body.data.token })).body.code).toBe("SUCCESS");
    // The step's challenge is spent: neither a second session from it nor new options.
    const again = await t.api("POST", "/auth/mfa/passkey", { body: { challenge: c.challenge, credential } });
    refusedWith(again, /challenge/);
    const more = await t.api("POST", "/auth/mfa/passkey/options", { body: { challenge: c.challenge } });
    refusedWith(more, /challenge/);
  });

  it("refuses another account's passkey, and an answer to another sign-in's options", async () => {
    const u = await t.register();
    await registerPasskey(u);
    const v = await t.register();
    const { auth: theirs } = await registerPasskey(v);
    const c = await challengeOf(u);
    const opts = await mfaOptions(c.challenge);
    refusedWith(
      await t.api("POST", "/auth/mfa/passkey", { body: { challenge: c.challenge, credential: theirs.get(opts) } }),
      /未在此账号登记/,
    );
    // v's own sign-in options answered into u's step: the challenge is bound to v's step.
    const cv = await challengeOf(v);
    const vOpts = await mfaOptions(cv.challenge);
    refusedWith(
      await t.api("POST", "/auth/mfa/passkey", { body: { challenge: cv.challenge, credential: theirs.get(opts) } }),
      /过期或已使用/,
    );
    expect(
      (await t.api("POST", "/auth/mfa/passkey", { body: { challenge: cv.challenge, credential: theirs.get(vOpts) } }))
        .body.code,
    ).toBe("SUCCESS");
  });

  it("counts failures under the second factor's limit: five per account, then 429", async () => {
    const u = await t.register();
    const { auth } = await registerPasskey(u);
    const c = await challengeOf(u);
    for (let i = 0; i < 5; i++) {
      const opts = await mfaOptions(c.challenge);
      refusedWith(
        await t.api("POST", "/auth/mfa/passkey", {
          body: { challenge: c.challenge, credential: auth.get(opts, { origin: "https://evil.example.net" }) },
        }),
        /来源网址/,
      );
    }
    const opts = await mfaOptions(c.challenge);
    const locked = await t.api("POST", "/auth/mfa/passkey", {
      body: { challenge: c.challenge, credential: auth.get(opts) },
    });
    expect(locked.status).toBe(429);
  });
});

describe("the staff requirement (STAFF_MFA_REQUIRED) met by a passkey", () => {
  let s: TestApp;
  beforeAll(async () => {
    s = await createTestApp({ STAFF_MFA_REQUIRED: "1", PUBLIC_URL: ORIGIN });
  });
  afterAll(() => s.close());

  it("asks a staff member with a passkey for the second step, not the TOTP enrolment, and keeps the last one", async () => {
    const u = await s.register();
    const o = await s.api<PasskeyOptions>("POST", "/user/passkeys/options", { token: u.token });
    const auth = new SoftAuthenticator(ORIGIN);
    const reg = await s.api<PasskeyInfo>("POST", "/user/passkeys", {
      token: u.token,
      body: { name: "key", credential: auth.create(o.body.data.options) },
    });
    await updateUserRow(direct(s.ctx), u.uid, { role: Role.Support });

    const login = await s.api<MfaChallengeData>("POST", "/auth/login", {
      body: { phone: u.phone, password: u.password },
    });
    expect(login.body.data).toMatchObject({ setup: false, passkey: true });
    const opts = await s.api<PasskeyOptions>("POST", "/auth/mfa/passkey/options", {
      body: { challenge: login.body.data.challenge },
    });
    const r = await s.api<{ token: string }>("POST", "/auth/mfa/passkey", {
      body: { challenge: login.body.data.challenge, credential: auth.get(opts.body.data.options) },
    });
    expect(r.body.code).toBe("SUCCESS");
    const del = await s.api("POST", `/user/passkeys/${reg.body.data.id}/delete`, {
      token: r.body.data.token,
      body: { password: u.password },
    });
    expect([del.status, del.body.msg]).toEqual([403, expect.stringMatching(/最后一个通行密钥/)]);
  });
});
