import type { LoginLog, OidcCallbackResult, OidcProviderRow, Paged, TotpEnrolment, UserInfo } from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, nextPhone, type TestApp } from "../../../test/harness";
import { providerSignIn, startTestOidcProvider, type TestOidcProvider } from "../../../test/oidc-provider";
import { totpCode } from "../auth/totp";
import { decryptSecret, encryptSecret } from "./secrets";

const PUBLIC_URL = "http://burrow.test";
let t: TestApp;
let op: TestOidcProvider;
let admin: string;
let providerId: number;
let seq = 0;

beforeAll(async () => {
  op = await startTestOidcProvider({ redirectUri: `${PUBLIC_URL}/callback/auth` });
  t = await createTestApp({ PUBLIC_URL });
  admin = await t.adminToken();
  const p = await t.api<OidcProviderRow>("POST", "/super/oidc", {
    token: admin,
    body: {
      name: "测试身份",
      issuer: op.issuer,
      client_id: op.clientId,
      client_secret: op.clientSecret,
      scopes: "openid profile",
    },
  });
  expect(p.body.code).toBe("SUCCESS");
  providerId = p.body.data.id;
});
afterAll(async () => {
  await t.close();
  await op.close();
});

/** One browser: its burrow_oidc cookie and its session token. */
class Browser {
  cookie = "";
  token?: string;
  async call<T>(method: string, url: string, body?: unknown) {
    const res = await t.app.inject({
      method: method as "GET",
      url: `/api${url}`,
      headers: {
        ...(this.cookie && { cookie: this.cookie }),
        ...(this.token && { authorization: `Bearer ${this.token}` }),
      },
      remoteAddress: `198.19.0.${++seq % 250}`,
      ...(body !== undefined && { payload: body as object }),
    });
    const set = res.headers["set-cookie"];
    if (set) this.cookie = String(set).split(";")[0];
    return {
      status: res.statusCode,
      headers: res.headers,
      body: res.json() as { code: string | number; msg: string; data: T },
    };
  }
  /** GET /auth/oidc/start (or the bind start when signed in) → the provider's URL */
  async start(bind = false): Promise<string> {
    const r = bind
      ? await this.call<{ url: string }>("POST", "/user/oidc/bind", { provider: providerId })
      : await this.call<{ url: string }>("GET", `/auth/oidc/start?provider=${providerId}`);
    expect(r.body.code, JSON.stringify(r.body)).toBe("SUCCESS");
    return r.body.data.url;
  }
  /** what the /callback/auth page posts */
  callback(back: URL) {
    return this.call<OidcCallbackResult>("POST", "/auth/oidc/callback", Object.fromEntries(back.searchParams));
  }
}

/** Signs in at the provider as `account` and finishes the flow in `b`. */
async function signInAs(b: Browser, account: string) {
  const back = await providerSignIn(await b.start(), account);
  return b.callback(back);
}

describe("OIDC providers (/super/oidc)", () => {
  it("lists enabled providers publicly as id and name only, and never answers the secret", async () => {
    const pub = await t.api<{ id: number; name: string }[]>("GET", "/auth/oidc/providers");
    expect(pub.body.data).toEqual([{ id: providerId, name: "测试身份" }]);
    const list = await t.api<OidcProviderRow[]>("GET", "/super/oidc", { token: admin });
    expect(list.body.data[0]).toMatchObject({ issuer: op.issuer, client_id: op.clientId, has_secret: true });
    expect(JSON.stringify(list.body.data)).not.toContain(op.clientSecret);
    const stored = await t.db.selectFrom("oidc_providers").select("client_secret_enc").executeTakeFirstOrThrow();
    expect(stored.client_secret_enc).not.toContain(op.clientSecret);
    const audits = await t.db
      .selectFrom("audit_logs")
      .select(["action", "detail"])
      .where("action", "like", "oidc.%")
      .execute();
    expect(audits.map((a) => a.action)).toContain("oidc.create");
    expect(JSON.stringify(audits)).not.toContain(op.clientSecret);
  });

  it("refuses the /super provider calls to customers and anonymous callers", async () => {
    const u = await t.register();
    for (const [method, body] of [
      ["GET", undefined],
      ["POST", { name: "x", issuer: "https://idp.example.com", client_id: "a", client_secret: "b" }],
      ["PATCH", { id: providerId, name: "x" }],
      ["DELETE", { id: providerId }],
    ] as const) {
      const r = await t.api(method, "/super/oidc", { token: u.token, body });
      expect(r.status).toBe(403);
      const anon = await t.api(method, "/super/oidc", { body });
      expect(anon.status).toBe(401);
    }
    const p = await t.db.selectFrom("oidc_providers").select("name").executeTakeFirstOrThrow();
    expect(p.name).toBe("测试身份");
  });

  it("validates the issuer (https, or http on loopback only) and keeps the secret on an empty update", async () => {
    const bad = await t.api("POST", "/super/oidc", {
      token: admin,
      body: { name: "x", issuer: "http://idp.example.com", client_id: "a", client_secret: "b" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain("issuer");
    const before = await t.db.selectFrom("oidc_providers").select("client_secret_enc").executeTakeFirstOrThrow();
    const r = await t.api<OidcProviderRow>("PATCH", "/super/oidc", {
      token: admin,
      body: { id: providerId, name: "测试身份", client_secret: "" },
    });
    expect(r.body.data.has_secret).toBe(true);
    const after = await t.db.selectFrom("oidc_providers").select("client_secret_enc").executeTakeFirstOrThrow();
    expect(after.client_secret_enc).toBe(before.client_secret_enc);
  });
});

describe("a stored client secret stays with its issuer and client id (issue 30 §9)", () => {
  const row = () =>
    t.db
      .selectFrom("oidc_providers")
      .select(["issuer", "client_id", "client_secret_enc", "updated_at"])
      .where("id", "=", providerId)
      .executeTakeFirstOrThrow();

  it("refuses a new issuer or client id without the secret given again, changing nothing", async () => {
    const before = await row();
    for (const change of [
      { issuer: "https://idp.attacker.example" },
      { issuer: "https://idp.attacker.example", client_secret: "" },
      { client_id: "another-client" },
      { issuer: `${op.issuer}/`, client_id: op.clientId },
    ]) {
      const r = await t.api("PATCH", "/super/oidc", {
        token: admin,
        body: { id: providerId, name: "改名", ...change },
      });
      expect([r.status, r.body.code], JSON.stringify(change)).toEqual([400, 10000]);
      expect(r.body.msg).toMatch(/^client_secret: /);
      expect(await row()).toEqual(before);
    }
    const list = await t.api<OidcProviderRow[]>("GET", "/super/oidc", { token: admin });
    expect(list.body.data.find((p) => p.id === providerId)?.name).toBe("测试身份");
  });

  it("accepts the same issuer and client id without it (the edit form sends every field), and a move with it", async () => {
    const before = await row();
    const same = await t.api<OidcProviderRow>("PATCH", "/super/oidc", {
      token: admin,
      body: { id: providerId, name: "测试身份", issuer: op.issuer, client_id: op.clientId, client_secret: "" },
    });
    expect(same.body.code, JSON.stringify(same.body)).toBe("SUCCESS");
    expect((await row()).client_secret_enc).toBe(before.client_secret_enc);
    const moved = await t.api<OidcProviderRow>("PATCH", "/super/oidc", {
      token: admin,
      body: { id: providerId, issuer: "https://idp.elsewhere.example", client_secret: "the-new-secret" },
    });
    expect(moved.body.code, JSON.stringify(moved.body)).toBe("SUCCESS");
    expect(moved.body.data.issuer).toBe("https://idp.elsewhere.example");
    const enc = (await row()).client_secret_enc;
    expect(enc).not.toBe(before.client_secret_enc);
    expect(await decryptSecret(t.ctx, enc)).toBe("the-new-secret");
    // Back to the test provider, with its secret given again.
    const back = await t.api("PATCH", "/super/oidc", {
      token: admin,
      body: { id: providerId, issuer: op.issuer, client_secret: op.clientSecret },
    });
    expect(back.body.code).toBe("SUCCESS");
  });
});

describe("client secrets at rest", () => {
  it("in production need OIDC_SECRET_KEY (a key kept in the database would travel with it); elsewhere one is generated", async () => {
    const prod = { config: { NODE_ENV: "production" }, db: t.db } as unknown as typeof t.ctx;
    await expect(encryptSecret(prod, "s")).rejects.toThrow(/OIDC_SECRET_KEY/);
    const keyed = {
      config: { NODE_ENV: "production", OIDC_SECRET_KEY: "k".repeat(32) },
      db: t.db,
    } as unknown as typeof t.ctx;
    expect(await decryptSecret(keyed, await encryptSecret(keyed, "s"))).toBe("s");
    const dev = { config: { NODE_ENV: "development" }, db: t.db } as unknown as typeof t.ctx;
    expect(await decryptSecret(dev, await encryptSecret(dev, "s"))).toBe("s");
  });
});

describe("sign-in with a provider", () => {
  it("sends the browser to the provider with PKCE, state, nonce and PUBLIC_URL's callback, bound by an httpOnly cookie", async () => {
    const b = new Browser();
    const r = await b.call<{ url: string }>("GET", `/auth/oidc/start?provider=${providerId}`);
    const url = new URL(r.body.data.url);
    expect(url.origin).toBe(op.issuer);
    expect(url.searchParams.get("redirect_uri")).toBe(`${PUBLIC_URL}/callback/auth`);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("state")).toBeTruthy();
    expect(url.searchParams.get("nonce")).toBeTruthy();
    expect(String(r.headers["set-cookie"])).toMatch(
      /^burrow_oidc=[\w-]{40,}; Path=\/api\/auth\/oidc; .*HttpOnly; SameSite=Lax/,
    );
    // A forged Host or X-Forwarded-Host never changes the redirect_uri.
    const forged = await t.app.inject({
      method: "GET",
      url: `/api/auth/oidc/start?provider=${providerId}`,
      headers: { host: "evil.example", "x-forwarded-host": "evil.example" },
    });
    expect(new URL(forged.json().data.url).searchParams.get("redirect_uri")).toBe(`${PUBLIC_URL}/callback/auth`);
  });

  it("creates an account on first sign-in that needs a phone before buying or creating tunnels, then signs in again", async () => {
    const b = new Browser();
    const first = await signInAs(b, "alice");
    expect(first.body.data.kind).toBe("unlinked");
    if (first.body.data.kind !== "unlinked") return;
    const reg = await b.call<{ token: string }>("POST", "/auth/oidc/register", { ticket: first.body.data.ticket });
    expect(reg.body.code).toBe("SUCCESS");
    b.token = reg.body.data.token;
    const info = await b.call<UserInfo>("GET", "/user/userInfo");
    expect(info.body.data).toMatchObject({ phone_bound: false, has_password: false, nickname: "测试alice" });
    expect(info.body.data.personal_info.phone_number).toBe("");
    // Same history row as any sign-in, naming the provider.
    const logs = await b.call<Paged<LoginLog>>("GET", "/user/loginList");
    expect(logs.body.data.list[0]).toMatchObject({ method: "oidc", provider: "测试身份" });
    // A ticket answers once.
    const again = await b.call("POST", "/auth/oidc/register", { ticket: first.body.data.ticket });
    expect(again.status).toBe(403);

    const order = await b.call("POST", "/user/order", { type: 1, amount: 1000, pay_method: 2 });
    expect(order.status).toBe(403);
    expect(order.body.msg).toContain("绑定手机号");
    const tun = await b.call("POST", "/user/tun", {
      tun_name: "t1",
      node_id: 1,
      protocol: "tcp",
      local_ip: "127.0.0.1",
      local_port: 22,
      remote_port: 30000,
    });
    expect(tun.status).toBe(403);
    expect(tun.body.msg).toContain("绑定手机号");

    // Binding a phone (the ordinary SMS flow) lifts it.
    const phone = nextPhone();
    await t.api("POST", "/auth/sms", { body: { phone, scene: "phone" } });
    const bind = await b.call("POST", "/user/phone", { phone, code: t.sms.last(phone) });
    expect(bind.body.code).toBe("SUCCESS");
    const order2 = await b.call("POST", "/user/order", { type: 1, amount: 1000, pay_method: 2 });
    expect(order2.body.code).toBe("SUCCESS");

    // Signing in again lands in the same account, with a working session.
    const b2 = new Browser();
    const second = await signInAs(b2, "alice");
    expect(second.body.data.kind).toBe("session");
    if (second.body.data.kind !== "session") return;
    b2.token = second.body.data.token;
    const info2 = await b2.call<UserInfo>("GET", "/user/userInfo");
    expect(info2.body.data.uid).toBe(info.body.data.uid);
    // ...and logout revokes it like any session.
    await b2.call("POST", "/auth/logout");
    expect((await b2.call("GET", "/user/userInfo")).status).toBe(401);
  });

  it("creates one account when two browsers register the same identity at once; the other hears 409", async () => {
    const tickets: string[] = [];
    const browsers = [new Browser(), new Browser()];
    for (const b of browsers) {
      const first = await signInAs(b, "twice");
      if (first.body.data.kind !== "unlinked") throw new Error(JSON.stringify(first.body));
      tickets.push(first.body.data.ticket);
    }
    const answers = await Promise.all(
      browsers.map((b, i) => b.call<{ token: string }>("POST", "/auth/oidc/register", { ticket: tickets[i] })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)?.body.msg).toBe("该第三方账号已绑定其他账号");
    const bound = await t.db
      .selectFrom("oidc_identities")
      .select("uid")
      .where("provider_id", "=", providerId)
      .where("subject", "=", "twice")
      .execute();
    expect(bound).toHaveLength(1);
  });

  it("links a first sign-in to an existing account after the phone is proven by SMS", async () => {
    const u = await t.register();
    const b = new Browser();
    const first = await signInAs(b, "bob");
    if (first.body.data.kind !== "unlinked") throw new Error(JSON.stringify(first.body));
    const ticket = first.body.data.ticket;
    await t.api("POST", "/auth/sms", { body: { phone: u.phone, scene: "login" } });
    const wrong = await b.call("POST", "/auth/oidc/link", { ticket, phone: u.phone, code: "000000" });
    expect(wrong.status).toBe(400);
    // Another browser holding the ticket (stolen from a log) cannot use it.
    const thief = new Browser();
    thief.cookie = "burrow_oidc=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    await t.api("POST", "/auth/sms", { body: { phone: u.phone, scene: "login" } }).catch(() => null);
    const stolen = await thief.call("POST", "/auth/oidc/link", { ticket, phone: u.phone, code: t.sms.last(u.phone) });
    expect(stolen.status).toBe(403);
    const ok = await b.call<{ token: string }>("POST", "/auth/oidc/link", {
      ticket,
      phone: u.phone,
      code: t.sms.last(u.phone),
    });
    expect(ok.body.code, JSON.stringify(ok.body)).toBe("SUCCESS");
    b.token = ok.body.data.token;
    expect((await b.call<UserInfo>("GET", "/user/userInfo")).body.data.uid).toBe(u.uid);
    const next = await signInAs(new Browser(), "bob");
    expect(next.body.data.kind).toBe("session");
  });

  it("answers a wrong code alike for a customer's phone and an unknown one; only a proven phone hears it has no account (issue 30 §10)", async () => {
    const known = (await t.register()).phone;
    const unknown = nextPhone();
    const b = new Browser();
    const first = await signInAs(b, "dave");
    if (first.body.data.kind !== "unlinked") throw new Error(JSON.stringify(first.body));
    const ticket = first.body.data.ticket;
    for (const phone of [known, unknown])
      expect((await t.api("POST", "/auth/sms", { body: { phone, scene: "login" } })).body.code).toBe("SUCCESS");
    const code = ["000000", "111111"].find((c) => c !== t.sms.last(known) && c !== t.sms.last(unknown)) as string;
    // The answer as sent, less its date and request id.
    const link = async (phone: string, code: string) => {
      const r = await b.call("POST", "/auth/oidc/link", { ticket, phone, code });
      const { date: _date, "x-request-id": _id, ...headers } = r.headers;
      return { status: r.status, headers, body: JSON.stringify(r.body) };
    };
    const a = await link(known, code);
    expect(a).toEqual(await link(unknown, code));
    expect(JSON.parse(a.body)).toMatchObject({ code: 10000, data: { field: "code" } });
    // The unknown phone's holder learns there is no account; the ticket stays for the known one.
    expect((await link(unknown, t.sms.last(unknown))).status).toBe(404);
    const ok = await link(known, t.sms.last(known));
    expect(JSON.parse(ok.body).code, ok.body).toBe("SUCCESS");
  });

  it("refuses a tampered state, a reused state and a flow finished in another browser", async () => {
    const b = new Browser();
    const back = await providerSignIn(await b.start(), "carol");
    const tampered = new URL(back);
    tampered.searchParams.set("state", `${back.searchParams.get("state")}x`);
    const r1 = await b.callback(tampered);
    expect(r1.status).toBe(403);
    expect(r1.body.msg).toContain("无效或已过期");
    const other = new Browser();
    other.cookie = "burrow_oidc=BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB";
    expect((await other.callback(back)).status).toBe(403);
    const noCookie = new Browser();
    expect((await noCookie.callback(back)).status).toBe(403);
    const ok = await b.callback(back);
    expect(ok.body.code).toBe("SUCCESS");
    const reuse = await b.callback(back);
    expect(reuse.status).toBe(403);
    expect(reuse.body.msg).toContain("无效或已过期");
  });

  it("refuses an ID token whose nonce is not the flow's (replayed from another flow)", async () => {
    const b = new Browser();
    const urlA = await b.start();
    const urlB = await b.start();
    const backA = await providerSignIn(urlA, "dave");
    // Flow B's state with flow A's code: the code and its ID token (nonce A) belong to another flow.
    const mixed = new URL(backA);
    mixed.searchParams.set("state", new URL(urlB).searchParams.get("state") ?? "");
    expect((await b.callback(mixed)).status).toBe(403);
    // And with everything else right, a stored nonce that differs from the token's is refused.
    const urlC = await b.start();
    const backC = await providerSignIn(urlC, "dave");
    await t.db.updateTable("oidc_flows").set({ nonce: "replayed-nonce" }).where("used_at", "is", null).execute();
    const r = await b.callback(backC);
    expect(r.status).toBe(403);
    expect(r.body.msg).toContain("校验失败");
  });

  it("turns the provider's error into a clear message and spends the flow", async () => {
    const b = new Browser();
    const back = await providerSignIn(await b.start(), null);
    expect(back.searchParams.get("error")).toBe("access_denied");
    const r = await b.callback(back);
    expect(r.status).toBe(403);
    expect(r.body.msg).toBe("你已取消授权，第三方登录未完成");
    expect((await b.callback(back)).body.msg).toContain("无效或已过期");
  });

  it("refuses to start without PUBLIC_URL", async () => {
    const bare = await createTestApp();
    try {
      const admin2 = await bare.adminToken();
      await bare.api("POST", "/super/oidc", {
        token: admin2,
        body: { name: "x", issuer: op.issuer, client_id: op.clientId, client_secret: op.clientSecret },
      });
      const r = await bare.api("GET", "/auth/oidc/start", { query: { provider: 1 } });
      expect(r.status).toBe(403);
      expect(r.body.msg).toContain("PUBLIC_URL");
    } finally {
      await bare.close();
    }
  });
});

describe("bindings in the personal centre", () => {
  it("binds, lists, refuses a second account for the same identity, and unbinds", async () => {
    const u = await t.register();
    const b = new Browser();
    b.token = u.token;
    const back = await providerSignIn(await b.start(true), "erin");
    const r = await b.callback(back);
    expect(r.body.data).toEqual({ kind: "bound", provider: "测试身份" });
    const mine = await b.call<{ provider_id: number }[]>("GET", "/user/oidc");
    expect(mine.body.data.map((m) => m.provider_id)).toEqual([providerId]);

    // Another customer cannot bind the same identity, see or remove this binding.
    const v = await t.register();
    const c = new Browser();
    c.token = v.token;
    const dup = await c.callback(await providerSignIn(await c.start(true), "erin"));
    expect(dup.status).toBe(409);
    expect((await c.call<unknown[]>("GET", "/user/oidc")).body.data).toEqual([]);
    expect((await c.call("DELETE", "/user/oidc", { provider: providerId })).status).toBe(404);
    expect(await t.db.selectFrom("oidc_identities").select("uid").where("uid", "=", u.uid).execute()).toHaveLength(1);

    // A bind flow finishes only for the customer who started it.
    const started = await b.start(true);
    const back2 = await providerSignIn(started, "erin2");
    c.cookie = b.cookie;
    expect((await c.callback(back2)).status).toBe(403);

    const del = await b.call("DELETE", "/user/oidc", { provider: providerId });
    expect(del.body.code).toBe("SUCCESS");
    expect((await b.call<unknown[]>("GET", "/user/oidc")).body.data).toEqual([]);
  });

  it("refuses a third-party sign-in to an account with two-factor on: the provider cannot ask for the code", async () => {
    const u = await t.register();
    const b = new Browser();
    b.token = u.token;
    expect((await b.callback(await providerSignIn(await b.start(true), "grace"))).body.code).toBe("SUCCESS");
    const enrol = await t.api<TotpEnrolment>("POST", "/user/mfa/totp", { token: u.token });
    const on = await t.api("POST", "/user/mfa/totp/confirm", {
      token: u.token,
      body: { code: totpCode(enrol.body.data.secret) },
    });
    expect(on.body.code).toBe("SUCCESS");
    const r = await signInAs(new Browser(), "grace");
    expect([r.status, r.body.code]).toEqual([403, 2001]);
    expect(r.body.msg).toContain("两步验证");

    // Linking a new identity to it by SMS is refused too, and binds nothing.
    const b2 = new Browser();
    const first = await signInAs(b2, "ivan");
    if (first.body.data.kind !== "unlinked") throw new Error(JSON.stringify(first.body));
    await t.api("POST", "/auth/sms", { body: { phone: u.phone, scene: "login" } });
    const link = await b2.call("POST", "/auth/oidc/link", {
      ticket: first.body.data.ticket,
      phone: u.phone,
      code: t.sms.last(u.phone),
    });
    expect([link.status, link.body.code]).toEqual([403, 2001]);
    expect(await t.db.selectFrom("oidc_identities").select("subject").where("uid", "=", u.uid).execute()).toEqual([
      { subject: "grace" },
    ]);
  });

  it("refuses to unbind the last way to sign in", async () => {
    const b = new Browser();
    const first = await signInAs(b, "frank");
    if (first.body.data.kind !== "unlinked") throw new Error("expected unlinked");
    b.token = (
      await b.call<{ token: string }>("POST", "/auth/oidc/register", { ticket: first.body.data.ticket })
    ).body.data.token;
    const r = await b.call("DELETE", "/user/oidc", { provider: providerId });
    expect(r.status).toBe(403);
    expect(r.body.msg).toContain("唯一的登录方式");
    // The operator cannot delete a provider accounts are bound to (disable instead).
    const d = await t.api("DELETE", "/super/oidc", { token: admin, body: { id: providerId } });
    expect(d.status).toBe(403);
  });

  it("refuses sign-in through a disabled provider", async () => {
    const b = new Browser();
    const url = await b.start();
    await t.api("PATCH", "/super/oidc", { token: admin, body: { id: providerId, enabled: false } });
    try {
      expect((await t.api("GET", "/auth/oidc/providers")).body.data).toEqual([]);
      expect((await b.call("GET", `/auth/oidc/start?provider=${providerId}`)).status).toBe(404);
      const back = await providerSignIn(url, "alice");
      expect((await b.callback(back)).status).toBe(404);
    } finally {
      await t.api("PATCH", "/super/oidc", { token: admin, body: { id: providerId, enabled: true } });
    }
  });
});
