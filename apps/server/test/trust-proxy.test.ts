import { afterAll, describe, expect, it } from "vitest";
import { createTestNode } from "./frp-fixtures";
import { createTestApp, nextPhone, type TestApp } from "./harness";

// Issue 19 §3: TRUST_PROXY=true trusted every hop, so the client's own X-Forwarded-For decided
// req.ip: 36 of 36 SMS codes went out from one address with a changing header.

const PROXY = "127.0.0.1";
const opened: TestApp[] = [];
afterAll(() => Promise.all(opened.map((t) => t.close())));
const app = async (env: Record<string, string>) => {
  const t = await createTestApp(env);
  opened.push(t);
  return t;
};

/** 36 SMS requests from one real client, each with a new forged X-Forwarded-For prefix. */
async function smsBurst(t: TestApp, client: string, via: string, forward: (i: number) => string) {
  const statuses: number[] = [];
  for (let i = 0; i < 36; i++) {
    const r = await t.api("POST", "/auth/sms", {
      body: { phone: nextPhone(), scene: "register" },
      ip: via,
      headers: { "x-forwarded-for": forward(i) },
    });
    statuses.push(r.status);
  }
  expect(statuses.slice(0, 30)).toEqual(Array(30).fill(200));
  expect(statuses.slice(30)).toEqual(Array(6).fill(429));
  const rows = await t.db.selectFrom("sms_codes").select("ip").distinct().where("ip", "like", `${client}%`).execute();
  expect(rows.map((r) => r.ip)).toEqual([client]);
}

describe("TRUST_PROXY", () => {
  for (const setting of ["true", "1", PROXY, "loopback,10.0.0.0/8"]) {
    it(`TRUST_PROXY=${setting}: a forged X-Forwarded-For prefix does not change the client address`, async () => {
      const t = await app({ TRUST_PROXY: setting });
      // The proxy appends the address it saw; whatever the client sent comes before it.
      await smsBurst(t, "203.0.113.50", PROXY, (i) => `198.51.100.${i}, 203.0.113.50`);
      const u = await t.register();
      const r = await t.api<{ token: string }>("POST", "/auth/login", {
        body: { phone: u.phone, password: u.password },
        ip: PROXY,
        headers: { "x-forwarded-for": "6.6.6.6, 203.0.113.77" },
      });
      const list = await t.api<{ list: { ip: string }[] }>("GET", "/user/loginList", { token: r.body.data.token });
      expect(list.body.data.list.map((l) => l.ip)).toContain("203.0.113.77");
      expect(JSON.stringify(list.body.data)).not.toContain("6.6.6.6");
    });
  }

  it("with proxy addresses, a client reaching the server directly cannot forward an address at all", async () => {
    const t = await app({ TRUST_PROXY: PROXY });
    await smsBurst(t, "203.0.113.60", "203.0.113.60", (i) => `198.51.100.${i}`);
  });

  it("off by default: X-Forwarded-For is ignored", async () => {
    const t = await app({});
    await smsBurst(t, "127.0.0.1", PROXY, (i) => `198.51.100.${i}`);
  });

  it("refuses values that are neither a hop count nor addresses", async () => {
    await expect(createTestApp({ TRUST_PROXY: "everything" })).rejects.toThrow(/TRUST_PROXY/);
    await expect(createTestApp({ TRUST_PROXY: "10.0.0.0/40" })).rejects.toThrow(/TRUST_PROXY/);
  });

  it("never builds a link from X-Forwarded-Host", async () => {
    const t = await app({ TRUST_PROXY: "true" });
    const admin = await t.adminToken();
    const n = await createTestNode(t, {}, admin);
    const r = await t.api<{ plugin_url: string; frps_toml: string }>("GET", "/super/node/setup", {
      token: admin,
      query: { node_id: n.node_id },
      ip: PROXY,
      headers: { host: "console.example.com", "x-forwarded-host": "evil.example", "x-forwarded-for": "203.0.113.5" },
    });
    expect(r.body.data.plugin_url).toMatch(/^http:\/\/console\.example\.com\/api\/frp\/plugin\//);
    expect(JSON.stringify(r.body.data)).not.toContain("evil.example");
    const bad = await t.api("GET", "/super/node/setup", {
      token: admin,
      query: { node_id: n.node_id },
      headers: { host: "x&a=b@evil.example/" },
    });
    expect(bad.status).toBe(403);
  });
});
