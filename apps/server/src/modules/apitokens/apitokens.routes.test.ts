import {
  type AdminNodeDetail,
  type ApiTokenView,
  type CreatedApiToken,
  type Endpoint,
  ErrorCode,
  MAX_LIVE_API_TOKENS,
  OrdersApi,
  type Paged,
  TrafficApi,
  TunnelsApi,
  type TunnelView,
  UsersApi,
} from "@burrow/contract";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { openDomains } from "../../../test/domain-fixtures";
import { createTestNode, createTestTunnel, registerWithPlan } from "../../../test/frp-fixtures";
import { createTestApp, onlyOn, type TestApp } from "../../../test/harness";
import { holding, untilWaiting } from "../../../test/locks";
import { giveBalance } from "../../../test/store-fixtures";
import { lockUser } from "../../shared/locks";
import { DAY_MS } from "../../shared/time";
import { CALLS_PER_MINUTE } from "./api-token-credential";

let t: TestApp;
let node: AdminNodeDetail;
beforeAll(async () => {
  t = await createTestApp();
  openDomains(t);
  node = await createTestNode(t);
});
afterAll(() => t.close());
afterEach(() => vi.useRealTimers());

type Body = { name?: string; scopes: string[]; expires_days?: number | null };

async function mint(session: string, body: Body): Promise<CreatedApiToken> {
  const r = await t.api<CreatedApiToken>("POST", "/user/apiToken", { token: session, body: { name: "ci", ...body } });
  if (r.body.code !== "SUCCESS") throw new Error(`mint failed: ${JSON.stringify(r.body)}`);
  return r.body.data;
}

const listTunnels = (token: string) => t.api<Paged<TunnelView>>("GET", "/user/tun", { token });

describe("managing tokens", () => {
  it("creates, lists without the secret, stores only a hash, revokes", async () => {
    const u = await t.register();
    const created = await mint(u.token, {
      name: "部署脚本",
      scopes: ["tunnels:read", "traffic:read"],
      expires_days: 30,
    });
    expect(created.token).toMatch(/^brw_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(created.token.slice(4, 20)).toBe(created.id);
    expect(created).toMatchObject({ name: "部署脚本", scopes: ["tunnels:read", "traffic:read"], revoked_at: null });
    expect(Date.parse(created.expires_at ?? "") - Date.parse(created.created_at)).toBe(30 * DAY_MS);

    const list = await t.api<ApiTokenView[]>("GET", "/user/apiToken", { token: u.token });
    expect(list.body.data.map((x) => x.id)).toEqual([created.id]);
    expect(JSON.stringify(list.body.data)).not.toContain(created.token.slice(21));
    const row = await t.db.selectFrom("api_tokens").selectAll().where("id", "=", created.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(created.token.slice(21));
    expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);

    const revoked = await t.api<ApiTokenView>("DELETE", `/user/apiToken/${created.id}`, { token: u.token });
    expect(revoked.body.data.revoked_at).not.toBeNull();
    const again = await t.api<ApiTokenView>("DELETE", `/user/apiToken/${created.id}`, { token: u.token });
    expect(again.body.data.revoked_at).toBe(revoked.body.data.revoked_at);
  });

  it("refuses bad input naming the field, creating nothing", async () => {
    const u = await t.register();
    for (const [body, field] of [
      [{ name: "x", scopes: ["console"] }, "scopes"],
      [{ name: "x", scopes: [] }, "scopes"],
      [{ name: "x", scopes: ["tunnels:read"], expires_days: 366 }, "expires_days"],
      [{ name: " ", scopes: ["tunnels:read"] }, "name"],
    ] as const) {
      const r = await t.api("POST", "/user/apiToken", { token: u.token, body });
      expect([r.status, r.body.code]).toEqual([400, ErrorCode.InvalidParams]);
      expect(r.body.msg.startsWith(field)).toBe(true);
    }
    expect(await t.db.selectFrom("api_tokens").select("id").where("uid", "=", u.uid).execute()).toEqual([]);
  });

  it(`holds ${MAX_LIVE_API_TOKENS} live tokens at most, under concurrency; revoked ones do not count`, async () => {
    const u = await t.register();
    for (let i = 0; i < MAX_LIVE_API_TOKENS - 3; i++) await mint(u.token, { scopes: ["account:read"] });
    const burst = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.api("POST", "/user/apiToken", { token: u.token, body: { name: "burst", scopes: ["account:read"] } }),
      ),
    );
    expect(burst.filter((r) => r.body.code === "SUCCESS")).toHaveLength(3);
    for (const r of burst.filter((r) => r.body.code !== "SUCCESS"))
      expect([r.status, r.body.code]).toEqual([403, ErrorCode.BusinessRefused]);
    const list = await t.api<ApiTokenView[]>("GET", "/user/apiToken", { token: u.token });
    expect(list.body.data).toHaveLength(MAX_LIVE_API_TOKENS);
    await t.api("DELETE", `/user/apiToken/${list.body.data[0].id}`, { token: u.token });
    expect((await mint(u.token, { scopes: ["account:read"] })).token).toMatch(/^brw_/);
  });
});

// PostgreSQL only: SQLite runs one write transaction at a time, so nothing can race there.
const RACES = onlyOn("postgres", "SQLite runs one write transaction at a time");
describe("the live-token limit under concurrency", RACES, () => {
  it("counts under the customer's lock: creations waiting together still stop at the limit", async () => {
    const u = await t.register();
    for (let i = 0; i < MAX_LIVE_API_TOKENS - 2; i++) await mint(u.token, { scopes: ["account:read"] });
    // Hold the customer's lock until all five creations wait on it: each must count after it.
    const held = holding(t, (trx) => lockUser(trx, u.uid));
    await held.ready;
    const burst = Array.from({ length: 5 }, () =>
      t.api("POST", "/user/apiToken", { token: u.token, body: { name: "race", scopes: ["account:read"] } }),
    );
    try {
      await untilWaiting(t, 5);
    } finally {
      held.release();
      await held.done;
    }
    const codes = (await Promise.all(burst)).map((r) => r.body.code);
    expect(codes.filter((c) => c === "SUCCESS")).toHaveLength(2);
    expect(codes.filter((c) => c === ErrorCode.BusinessRefused)).toHaveLength(3);
    const rows = await t.db.selectFrom("api_tokens").select("id").where("uid", "=", u.uid).execute();
    expect(rows).toHaveLength(MAX_LIVE_API_TOKENS);
  });
});

describe("calling with a token", () => {
  it("reads tunnels with tunnels:read, is 403 on writing them without tunnels:write, writes with it", async () => {
    const u = await registerWithPlan(t);
    const tun = await createTestTunnel(t, u.token, { node_id: node.node_id });
    const read = await mint(u.token, { scopes: ["tunnels:read"] });
    const r = await listTunnels(read.token);
    expect(r.body.data.list.map((x) => x.tun_id)).toEqual([tun.tun_id]);
    const one = await t.api("GET", `/user/tun/${tun.tun_id}`, { token: read.token });
    expect(one.body.code).toBe("SUCCESS");

    const body = { tun_name: "bytoken", node_id: node.node_id, protocol: "tcp", local_port: 80 };
    const denied = await t.api("POST", "/user/tun", { token: read.token, body });
    expect([denied.status, denied.body.code]).toEqual([403, ErrorCode.NoPermission]);
    expect(denied.body.msg).toBe("API 令牌无权调用此接口（需要权限范围 tunnels:write）");
    const traffic = await t.api("GET", "/user/traffic", { token: read.token });
    expect(traffic.status).toBe(403);

    const write = await mint(u.token, { scopes: ["tunnels:write"] });
    const made = await t.api<TunnelView>("POST", "/user/tun", { token: write.token, body });
    expect(made.body.code).toBe("SUCCESS");
    expect((await listTunnels(read.token)).body.data.total).toBe(2);
  });

  it("records the last use (time and address)", async () => {
    const u = await t.register();
    const tok = await mint(u.token, { scopes: ["account:read"] });
    const me = await t.api<{ uid: number }>("GET", "/user/userInfo", { token: tok.token, ip: "203.0.113.7" });
    expect(me.body.data.uid).toBe(u.uid);
    const [view] = (await t.api<ApiTokenView[]>("GET", "/user/apiToken", { token: u.token })).body.data;
    expect(view.last_used_ip).toBe("203.0.113.7");
    expect(view.last_used_at).not.toBeNull();
  });

  it("is 401 once revoked (the very next call), once expired, or with a wrong secret", async () => {
    const u = await t.register();
    const tok = await mint(u.token, { scopes: ["account:read"], expires_days: 1 });
    expect((await t.api("GET", "/user/userInfo", { token: tok.token })).body.code).toBe("SUCCESS");

    const forged = `${tok.token.slice(0, 21)}${"A".repeat(43)}`;
    const bad = await t.api("GET", "/user/userInfo", { token: forged });
    expect([bad.status, bad.body.code, bad.body.msg]).toEqual([401, ErrorCode.TokenMissing, "API 令牌无效"]);
    const malformed = await t.api("GET", "/user/userInfo", { token: "brw_nothing" });
    expect([malformed.status, malformed.body.code]).toEqual([401, ErrorCode.TokenMissing]);

    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + DAY_MS + 1000 });
    const expired = await t.api("GET", "/user/userInfo", { token: tok.token });
    expect([expired.status, expired.body.code, expired.body.msg]).toEqual([
      401,
      ErrorCode.TokenExpired,
      "API 令牌已过期",
    ]);
    vi.useRealTimers();

    const other = await mint(u.token, { scopes: ["account:read"] });
    expect((await t.api("GET", "/user/userInfo", { token: other.token })).body.code).toBe("SUCCESS");
    await t.api("DELETE", `/user/apiToken/${other.id}`, { token: u.token });
    const revoked = await t.api("GET", "/user/userInfo", { token: other.token });
    expect([revoked.status, revoked.body.code, revoked.body.msg]).toEqual([
      401,
      ErrorCode.SessionRevoked,
      "API 令牌已撤销",
    ]);
  });

  it("reaches no /super endpoint, no money-moving call, no password or phone change, no token management", async () => {
    const admin = await t.adminToken();
    const every = ["tunnels:read", "tunnels:write", "traffic:read", "billing:read", "account:read"];
    const adminTok = await mint(admin, { scopes: every });
    const u = await t.register();
    const tok = await mint(u.token, { scopes: every });
    const refusals: [string, string, string, unknown?][] = [
      [adminTok.token, "GET", "/super/user/list"],
      [adminTok.token, "GET", "/super/viewInfo"],
      [tok.token, "POST", "/user/order", { type: 1, pay_method: 1, amount: 1000 }],
      [tok.token, "POST", "/user/giftCard/redeem", { code: "XXXX" }],
      [tok.token, "POST", "/user/aff/withdraw", { amount: 100 }],
      [tok.token, "POST", "/user/password", { old_password: "x", password: "whatever-123" }],
      [tok.token, "POST", "/user/phone", { phone: "13912345678", code: "123456" }],
      [tok.token, "POST", "/user/frpToken"],
      [tok.token, "GET", "/user/apiToken"],
      [tok.token, "POST", "/user/apiToken", { name: "more", scopes: every }],
      [tok.token, "DELETE", `/user/apiToken/${tok.id}`],
    ];
    for (const [token, method, url, body] of refusals) {
      const r = await t.api(method, url, { token, body });
      expect([url, r.status, r.body.code]).toEqual([url, 403, ErrorCode.NoPermission]);
      // A token acts as a customer: /super fails the role check first, the rest the scope check.
      expect(r.body.msg).toBe(url.startsWith("/super") ? "无权访问" : "API 令牌无权调用此接口（需要权限范围 console）");
    }
    const live = await t.db.selectFrom("api_tokens").select("revoked_at").where("uid", "=", u.uid).execute();
    expect(live).toEqual([{ revoked_at: null }]);
  });

  it("stops working when its owner is banned, and works again after the unban", async () => {
    const u = await t.register();
    const tok = await mint(u.token, { scopes: ["account:read"] });
    const admin = await t.adminToken();
    const ban = await t.api("PATCH", "/super/user/info", {
      token: admin,
      body: { uid: u.uid, status: -1, ban_reason: "滥用" },
    });
    expect(ban.body.code).toBe("SUCCESS");
    const refused = await t.api("GET", "/user/userInfo", { token: tok.token });
    expect([refused.status, refused.body.code]).toEqual([401, ErrorCode.SessionRevoked]);
    await t.api("PATCH", "/super/user/info", { token: admin, body: { uid: u.uid, status: 1 } });
    expect((await t.api("GET", "/user/userInfo", { token: tok.token })).body.code).toBe("SUCCESS");
  });

  it("ends with a new password: changed, reset by SMS, or set by an operator (a planted token does not outlive the repair)", async () => {
    const admin = await t.adminToken();
    const works = async (token: string) => (await t.api("GET", "/user/userInfo", { token })).body.code === "SUCCESS";

    const a = await t.register();
    const ta = await mint(a.token, { scopes: ["account:read"] });
    const changed = await t.api("POST", "/user/password", {
      token: a.token,
      body: { old_password: a.password, password: "changed-pass-1" },
    });
    expect(changed.body.code).toBe("SUCCESS");
    expect(await works(ta.token)).toBe(false);

    const b = await t.register();
    const tb = await mint(b.token, { scopes: ["account:read"] });
    await t.api("POST", "/auth/sms", { body: { phone: b.phone, scene: "reset" } });
    const reset = await t.api("POST", "/auth/reset", {
      body: { phone: b.phone, code: t.sms.last(b.phone), password: "reset-pass-1" },
    });
    expect(reset.body.code).toBe("SUCCESS");
    expect(await works(tb.token)).toBe(false);

    const c = await t.register();
    const tc = await mint(c.token, { scopes: ["account:read"] });
    const byOperator = await t.api("PATCH", "/super/user/info", {
      token: admin,
      body: { uid: c.uid, password: "operator-pass-1" },
    });
    expect(byOperator.body.code).toBe("SUCCESS");
    expect(await works(tc.token)).toBe(false);
    // a nickname edit is no credential change: the token keeps working
    const d = await t.register();
    const td = await mint(d.token, { scopes: ["account:read"] });
    await t.api("PATCH", "/super/user/info", { token: admin, body: { uid: d.uid, nickname: "改名" } });
    expect(await works(td.token)).toBe(true);
  });

  it("never shows another customer's rows", async () => {
    const a = await registerWithPlan(t);
    const b = await registerWithPlan(t);
    const aTun = await createTestTunnel(t, a.token, { node_id: node.node_id });
    const aTok = await mint(a.token, { scopes: ["tunnels:read"] });
    const bTok = await mint(b.token, { scopes: ["tunnels:read", "billing:read"] });
    expect((await listTunnels(bTok.token)).body.data.list).toEqual([]);
    expect((await t.api("GET", `/user/tun/${aTun.tun_id}`, { token: bTok.token })).status).toBe(404);
    const bList = await t.api<ApiTokenView[]>("GET", "/user/apiToken", { token: b.token });
    expect(bList.body.data.map((x) => x.id)).toEqual([bTok.id]);
    const steal = await t.api("DELETE", `/user/apiToken/${aTok.id}`, { token: b.token });
    expect(steal.status).toBe(404);
    expect((await listTunnels(aTok.token)).body.code).toBe("SUCCESS");
  });

  it(`is limited to ${CALLS_PER_MINUTE} calls a minute per token (429), other tokens unaffected`, async () => {
    const u = await t.register();
    const tok = await mint(u.token, { scopes: ["account:read"] });
    const other = await mint(u.token, { scopes: ["account:read"] });
    for (let i = 0; i < CALLS_PER_MINUTE; i++)
      expect((await t.api("GET", "/user/userInfo", { token: tok.token })).body.code).toBe("SUCCESS");
    const over = await t.api("GET", "/user/userInfo", { token: tok.token });
    expect([over.status, over.body.code]).toEqual([429, ErrorCode.RateLimited]);
    expect((await t.api("GET", "/user/userInfo", { token: other.token })).body.code).toBe("SUCCESS");
    expect((await t.api("GET", "/user/userInfo", { token: u.token })).body.code).toBe("SUCCESS");
  });
});

describe("the API reference", () => {
  it("names the scope each endpoint needs, and which ones no token may call", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/openapi.json" });
    const paths = res.json().paths as Record<string, Record<string, { "x-scope": string; description: string }>>;
    expect(paths["/user/tun"].get["x-scope"]).toBe("tunnels:read");
    expect(paths["/user/tun"].post.description).toContain("API 令牌需要权限范围 tunnels:write");
    expect(paths["/user/apiToken"].post["x-scope"]).toBe("console");
    expect(paths["/user/apiToken"].post.description).toContain("API 令牌不可调用");
    expect(paths["/super/user/list"].get.description).toContain("API 令牌不可调用");
  });

  it("describes `data` of the answers written as schemas, and real answers match them", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/openapi.json" });
    type Op = { responses: { "200": { content: { "application/json": { schema: Record<string, unknown> } } } } };
    const paths = res.json().paths as Record<string, Record<string, Op>>;
    const data = (path: string) =>
      (
        paths[path].get.responses["200"].content["application/json"].schema.allOf as {
          properties?: { data: unknown };
        }[]
      )[1]?.properties?.data;
    expect(data("/user/tun")).toMatchObject({
      properties: {
        list: {
          items: {
            properties: {
              tun_id: { type: "integer" },
              protocol: { enum: ["tcp", "udp", "http", "https", "stcp", "xtcp", "sudp"] },
            },
          },
        },
      },
    });
    expect(data("/user/userInfo")).toMatchObject({ properties: { has_password: { type: "boolean" } } });

    // The schemas are strict: a field the server answers that the schema lacks fails here.
    const u = await registerWithPlan(t);
    const tun = await createTestTunnel(t, u.token, { node_id: node.node_id });
    await giveBalance(t, u.uid, 1000); // a ledger row to check
    const order = await t.api("POST", "/user/order", {
      token: u.token,
      body: { type: 1, amount: 1000, pay_method: 2 },
    });
    expect(order.body.code).toBe("SUCCESS");
    const tok = await mint(u.token, { scopes: ["tunnels:read", "account:read", "billing:read", "traffic:read"] });
    const answers: [Endpoint, string][] = [
      [TunnelsApi.getUserTun, "/user/tun"],
      [TunnelsApi.getUserTunTunid, `/user/tun/${tun.tun_id}`],
      [UsersApi.getUserUserInfo, "/user/userInfo"],
      [OrdersApi.getUserLedger, "/user/ledger"],
      [OrdersApi.getUserOrder, "/user/order"],
      [TrafficApi.getUserTraffic, "/user/traffic"],
      [TrafficApi.getUserTunTunidTraffic, `/user/tun/${tun.tun_id}/traffic`],
      [TrafficApi.getUserTrafficRows, "/user/traffic/rows"],
      [TrafficApi.getUserTunTunidConns, `/user/tun/${tun.tun_id}/conns`],
      [TunnelsApi.getUserTunConfig, `/user/tun/config?tun_id=${tun.tun_id}`],
    ];
    for (const [ep, url] of answers) {
      const r = await t.api("GET", url, { token: tok.token });
      expect([url, r.body.code]).toEqual([url, "SUCCESS"]);
      // A new tunnel has no traffic or visitors yet (no rows, totals or conns); the other lists have some.
      if (!/traffic\/rows|conns/.test(url)) expect(JSON.stringify(r.body.data)).not.toMatch(/"(list|days)":\[\]/);
      expect(ep.answer?.safeParse(r.body.data).error?.issues ?? [], url).toEqual([]);
    }
  });
});
