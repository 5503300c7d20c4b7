import type { DeletionPrecheck, PasskeyInfo, PasskeyOptions, RecoveryCodes, TotpEnrolment } from "@burrow/contract";
import { beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../../test/harness";
import { PASSKEY_ORIGIN, passkeySuite, SoftAuthenticator } from "../../../test/soft-authenticator";
import { totpCode } from "../auth/totp";

// A passkey is the deletion's second factor wherever TOTP is (docs/leaving.md), with a software
// authenticator (test/soft-authenticator.ts) for the relying party PUBLIC_URL names.

const ORIGIN = PASSKEY_ORIGIN;
const suite = passkeySuite();
let t: TestApp;
beforeAll(() => {
  t = suite.get();
});

type User = Awaited<ReturnType<TestApp["register"]>>;

async function withPasskey(u: User): Promise<SoftAuthenticator> {
  const auth = new SoftAuthenticator(ORIGIN);
  const opts = await t.api<PasskeyOptions>("POST", "/user/passkeys/options", { token: u.token });
  const r = await t.api<PasskeyInfo>("POST", "/user/passkeys", {
    token: u.token,
    body: { name: "笔记本", credential: auth.create(opts.body.data.options) },
  });
  expect(r.body.code).toBe("SUCCESS");
  return auth;
}

/** The deletion's passkey step: options for the session, the authenticator's answer. */
async function answer(u: User, auth: SoftAuthenticator) {
  const opts = await t.api<PasskeyOptions>("POST", "/user/leaving/passkey/options", { token: u.token });
  expect(opts.body.code).toBe("SUCCESS");
  return auth.get(opts.body.data.options);
}

const ask = (u: User, over: Record<string, unknown> = {}) =>
  t.api<{ status: string }>("POST", "/user/leaving", {
    token: u.token,
    body: { password: u.password, confirm: "注销账号", ...over },
  });

const pending = async (u: User) => (await t.api("GET", "/user/leaving", { token: u.token })).body.data;

describe("a passkey confirms the deletion", () => {
  it("a passkey-only account gives password and passkey: without it, or with another account's, nothing changes", async () => {
    const u = await t.register();
    const auth = await withPasskey(u);
    const check = await t.api<DeletionPrecheck>("GET", "/user/leaving/precheck", { token: u.token });
    expect(check.body.data).toMatchObject({ totp: false, passkey: true });

    const bare = await ask(u);
    expect([bare.status, bare.body.code]).toEqual([400, 10000]);
    expect(bare.body.msg).toMatch(/^credential: /);
    const stranger = await t.register();
    const theirs = await withPasskey(stranger);
    const wrong = await ask(u, { credential: await answer(stranger, theirs) });
    expect([wrong.status, wrong.body.code]).toEqual([400, 10000]);
    expect(wrong.body.msg).toMatch(/^credential: /);
    expect(await pending(u)).toBeNull();

    const ok = await ask(u, { credential: await answer(u, auth) });
    expect(ok.body.code).toBe("SUCCESS");
    expect(ok.body.data.status).toBe("pending");
  });

  it("an account with TOTP and a passkey confirms with either; a spent challenge is refused", async () => {
    const u = await t.register();
    const start = await t.api<TotpEnrolment>("POST", "/user/mfa/totp", { token: u.token });
    const on = await t.api<RecoveryCodes>("POST", "/user/mfa/totp/confirm", {
      token: u.token,
      body: { code: totpCode(start.body.data.secret) },
    });
    expect(on.body.code).toBe("SUCCESS");
    const auth = await withPasskey(u);
    const none = await ask(u);
    expect(none.status).toBe(400);
    expect(none.body.msg).toMatch(/^code: .*通行密钥/);

    const credential = await answer(u, auth);
    expect((await ask(u, { credential })).body.code).toBe("SUCCESS");
    expect(await pending(u)).not.toBeNull();
    expect((await t.api("DELETE", "/user/leaving", { token: u.token })).body.code).toBe("SUCCESS");
    // the same answer again: its challenge was spent
    const replay = await ask(u, { credential });
    expect(replay.status).toBe(400);
    expect(replay.body.msg).toMatch(/^credential: /);
    expect(await pending(u)).toBeNull();
  });

  it("the options need a passkey on the account", async () => {
    const u = await t.register();
    const r = await t.api("POST", "/user/leaving/passkey/options", { token: u.token });
    expect([r.status, r.body.code]).toEqual([403, 2001]);
  });
});
