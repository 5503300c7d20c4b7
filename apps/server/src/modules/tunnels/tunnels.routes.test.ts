import type { AdminNodeDetail, Paged, TunnelDetail, TunnelView, UserNodeRow } from "@burrow/contract";
import { describe, expect, it } from "vitest";
import { tunnelSuite } from "../../../test/domain-fixtures";
import { createTestNode, createTestTunnel, setPlan } from "../../../test/frp-fixtures";
import { onlyOn, type TestApp } from "../../../test/harness";
import { holding, whileHeld } from "../../../test/locks";
import { lockUser } from "../../shared/locks";

let t: TestApp;
let admin: string;
let node: AdminNodeDetail;
tunnelSuite((ready) => ({ t, admin, node } = ready));

async function customer(plan: Parameters<typeof setPlan>[2] = {}) {
  const u = await t.register();
  await setPlan(t, u.uid, plan);
  return u;
}

describe("creating tunnels", () => {
  it("creates a tcp tunnel on a chosen port and shows the address to share", async () => {
    const u = await customer();
    // Fixed ports get a node of their own: other tests take random ports on the shared one.
    const own = await createTestNode(t, {}, admin);
    const r = await t.api<TunnelView>("POST", "/user/tun", {
      token: u.token,
      body: { tun_name: "ssh", node_id: own.node_id, protocol: "tcp", local_port: 22, remote_port: 20010 },
    });
    expect(r.body.code).toBe("SUCCESS");
    expect(r.body.data).toMatchObject({
      tun_name: "ssh",
      protocol: "tcp",
      local_ip: "127.0.0.1",
      local_port: 22,
      remote_port: 20010,
      status: 2,
      enabled: true,
      addresses: ["node.example.net:20010"],
      proxy_name: `u_${u.uid}.t_${r.body.data.tun_id}`,
      today_in: 0,
      traffic_out: 0,
    });
  });

  it("picks a random free port within the node's range", async () => {
    const u = await customer();
    const a = await createTestTunnel(t, u.token, { node_id: node.node_id, protocol: "udp" });
    expect(a.remote_port).toBeGreaterThanOrEqual(20000);
    expect(a.remote_port).toBeLessThanOrEqual(20100);
    const b = await createTestTunnel(t, u.token, { node_id: node.node_id, remote_port: 0 });
    expect(b.remote_port).not.toBe(a.remote_port);
  });

  it("creates http and https tunnels with custom domains, a subdomain and addon options", async () => {
    const u = await customer();
    const h = await createTestTunnel(t, u.token, {
      node_id: node.node_id,
      protocol: "http",
      local_port: 8080,
      custom_domains: ["Blog.Example.com"],
      subdomain: `web${u.uid}`,
      addon: { host_header_rewrite: "127.0.0.1", http_user: "u", http_password: "p", locations: ["/", "/api"] },
      use_compression: true,
    });
    expect(h.custom_domains).toEqual(["blog.example.com"]);
    expect(h.addresses).toEqual(["http://blog.example.com", `http://web${u.uid}.frp.example.net`]);
    expect(h.addon).toEqual({
      host_header_rewrite: "127.0.0.1",
      http_user: "u",
      http_password: "p",
      locations: ["/", "/api"],
    });
    expect(h.remote_port).toBeNull();
    const s = await createTestTunnel(t, u.token, {
      node_id: node.node_id,
      protocol: "https",
      local_port: 8443,
      custom_domains: ["secure.example.com"],
    });
    expect(s.addresses).toEqual(["https://secure.example.com"]);
  });

  it("refuses a port or domain already taken on the node (40001)", async () => {
    const a = await customer();
    const b = await customer();
    const own = await createTestNode(t, {}, admin);
    await createTestTunnel(t, a.token, { node_id: own.node_id, remote_port: 20020 });
    const port = await t.api("POST", "/user/tun", {
      token: b.token,
      body: { tun_name: "x", node_id: own.node_id, protocol: "tcp", local_port: 22, remote_port: 20020 },
    });
    expect(port.status).toBe(409);
    expect(port.body.code).toBe(40001);
    expect(port.body.msg).toContain("20020");
    await createTestTunnel(t, a.token, {
      node_id: node.node_id,
      protocol: "http",
      custom_domains: ["taken.example.com"],
      subdomain: "takensub",
    });
    const dom = await t.api("POST", "/user/tun", {
      token: b.token,
      body: {
        tun_name: "y",
        node_id: node.node_id,
        protocol: "https",
        local_port: 1,
        custom_domains: ["taken.example.com"],
      },
    });
    expect(dom.body.code).toBe(40001);
    const sub = await t.api("POST", "/user/tun", {
      token: b.token,
      body: { tun_name: "z", node_id: node.node_id, protocol: "http", local_port: 1, subdomain: "takensub" },
    });
    expect(sub.body.code).toBe(40001);
    // the same port on another node is fine
    const other = await createTestNode(t, {}, admin);
    await createTestTunnel(t, b.token, { node_id: other.node_id, remote_port: 20020 });
  });

  it("refuses a tunnel name the customer already uses (40008), not another customer's", async () => {
    const a = await customer();
    const b = await customer();
    await createTestTunnel(t, a.token, { node_id: node.node_id, tun_name: "same" });
    const dup = await t.api("POST", "/user/tun", {
      token: a.token,
      body: { tun_name: "same", node_id: node.node_id, protocol: "udp", local_port: 53 },
    });
    expect(dup.body.code).toBe(40008);
    expect(dup.body.msg).toContain("名称");
    await createTestTunnel(t, b.token, { node_id: node.node_id, tun_name: "same" });
  });

  it("enforces the plan: tunnel_limit, tunnel_peer_port_limit, bandwidth and node level (2001)", async () => {
    const u = await customer({ tunnel_limit: 1, tunnel_peer_port_limit: 2, bandwidth: 5 });
    await createTestTunnel(t, u.token, { node_id: node.node_id });
    const limit = await t.api("POST", "/user/tun", {
      token: u.token,
      body: { tun_name: "second", node_id: node.node_id, protocol: "tcp", local_port: 22 },
    });
    expect(limit.status).toBe(403);
    expect(limit.body.code).toBe(2001);
    expect(limit.body.msg).toContain("tunnel_limit");

    const v = await customer({ tunnel_peer_port_limit: 2, bandwidth: 5 });
    const peer = await t.api("POST", "/user/tun", {
      token: v.token,
      body: {
        tun_name: "many",
        node_id: node.node_id,
        protocol: "http",
        local_port: 80,
        custom_domains: ["a1.example.com", "a2.example.com"],
        subdomain: `many${v.uid}`,
      },
    });
    expect(peer.body.code).toBe(2001);
    expect(peer.body.msg).toContain("tunnel_peer_port_limit");
    const bw = await t.api("POST", "/user/tun", {
      token: v.token,
      body: { tun_name: "fast", node_id: node.node_id, protocol: "tcp", local_port: 22, bandwidth: 6 },
    });
    expect(bw.body.code).toBe(2001);
    expect(bw.body.msg).toContain("bandwidth");

    const pro = await t.db.selectFrom("plan_levels").select("id").where("level", "=", 3).executeTakeFirstOrThrow();
    const proNode = await createTestNode(t, { level_id: pro.id }, admin);
    const lvl = await t.api("POST", "/user/tun", {
      token: v.token,
      body: { tun_name: "pro", node_id: proNode.node_id, protocol: "tcp", local_port: 22 },
    });
    expect(lvl.body.code).toBe(2001);
    expect(lvl.body.msg).toContain("level");
    const w = await customer({ level: 3 });
    await createTestTunnel(t, w.token, { node_id: proNode.node_id });
  });

  it("names the bad field (10000)", async () => {
    const u = await customer();
    const cases: [Record<string, unknown>, string][] = [
      [{ tun_name: "", node_id: node.node_id, protocol: "tcp", local_port: 22 }, "tun_name"],
      [{ tun_name: "a b", node_id: node.node_id, protocol: "tcp", local_port: 22 }, "tun_name"],
      [{ tun_name: "a", node_id: node.node_id, protocol: "ftp", local_port: 22 }, "protocol"],
      [{ tun_name: "a", node_id: node.node_id, protocol: "tcp", local_port: 70000 }, "local_port"],
      [{ tun_name: "a", node_id: node.node_id, protocol: "tcp", local_port: 22, remote_port: 80 }, "remote_port"],
      [{ tun_name: "a", node_id: node.node_id, protocol: "tcp", local_port: 22, local_ip: "bad ip" }, "local_ip"],
      [{ tun_name: "a", node_id: node.node_id, protocol: "http", local_port: 22 }, "custom_domains"],
      [{ tun_name: "a", node_id: node.node_id, protocol: "http", local_port: 22, subdomain: "a.b" }, "subdomain"],
      [
        {
          tun_name: "a",
          node_id: node.node_id,
          protocol: "http",
          local_port: 22,
          custom_domains: ["x.frp.example.net"],
        },
        "custom_domains",
      ],
      [{ tun_name: "a", node_id: node.node_id, protocol: "tcp", local_port: 22, addon: { http_user: "u" } }, "addon"],
      [{ tun_name: "a", node_id: 999999, protocol: "tcp", local_port: 22 }, "node_id"],
    ];
    for (const [body, field] of cases) {
      const r = await t.api("POST", "/user/tun", { token: u.token, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.code).toBe(10000);
      expect(r.body.msg).toContain(field);
    }
  });

  it("refuses http on a node without a vhost http port", async () => {
    const u = await customer();
    const bare = await createTestNode(
      t,
      { vhost_http_port: null, vhost_https_port: null, subdomain_host: null },
      admin,
    );
    const r = await t.api("POST", "/user/tun", {
      token: u.token,
      body: {
        tun_name: "w",
        node_id: bare.node_id,
        protocol: "http",
        local_port: 80,
        custom_domains: ["w.example.com"],
      },
    });
    expect(r.body.code).toBe(10000);
    expect(r.body.msg).toContain("protocol");
  });
});

describe("a customer's tunnels", () => {
  it("lists only their own tunnels, with filters, and 404s on anyone else's", async () => {
    const a = await customer();
    const b = await customer();
    const ta = await createTestTunnel(t, a.token, { node_id: node.node_id, tun_name: "alpha" });
    await createTestTunnel(t, a.token, { node_id: node.node_id, tun_name: "beta", protocol: "udp" });
    const tb = await createTestTunnel(t, b.token, { node_id: node.node_id, tun_name: "gamma" });
    const all = await t.api<Paged<TunnelView>>("GET", "/user/tun", { token: a.token });
    expect(all.body.data.total).toBe(2);
    expect(all.body.data.list.map((x) => x.tun_name)).toEqual(["beta", "alpha"]);
    const udp = await t.api<Paged<TunnelView>>("GET", "/user/tun", { token: a.token, query: { protocol: "udp" } });
    expect(udp.body.data.list.map((x) => x.tun_name)).toEqual(["beta"]);
    const byName = await t.api<Paged<TunnelView>>("GET", "/user/tun", { token: a.token, query: { name: "LPH" } });
    expect(byName.body.data.list.map((x) => x.tun_name)).toEqual(["alpha"]);
    const detail = await t.api<TunnelDetail>("GET", `/user/tun/${ta.tun_id}`, { token: a.token });
    expect(detail.body.data).toMatchObject({ tun_id: ta.tun_id, node: { host: "node.example.net", bind_port: 7000 } });

    for (const [method, url, body] of [
      ["GET", `/user/tun/${tb.tun_id}`, undefined],
      ["PATCH", "/user/tun", { tun_id: tb.tun_id, tun_name: "mine" }],
      ["DELETE", "/user/tun", { tun_id: tb.tun_id }],
      ["GET", `/user/tun/${tb.tun_id}/traffic`, undefined],
      ["GET", `/user/tun/${tb.tun_id}/conns`, undefined],
    ] as const) {
      const r = await t.api(method, url, { token: a.token, body });
      expect(r.status, `${method} ${url}`).toBe(404);
    }
    const cfg = await t.api("GET", "/user/tun/config", { token: a.token, query: { tun_id: tb.tun_id } });
    expect(cfg.status).toBe(404);
    const traffic = await t.api("GET", "/user/traffic", { token: a.token, query: { tun_id: tb.tun_id } });
    expect(traffic.status).toBe(404);
    const badId = await t.api("GET", "/user/tun/abc", { token: a.token });
    expect(badId.body.code).toBe(10000);
  });

  it("edits, disables, re-enables and deletes a tunnel", async () => {
    const u = await customer();
    const own = await createTestNode(t, {}, admin);
    const x = await createTestTunnel(t, u.token, { node_id: own.node_id, tun_name: "edit-me", remote_port: 20030 });
    const e = await t.api<TunnelView>("PATCH", "/user/tun", {
      token: u.token,
      body: { tun_id: x.tun_id, tun_name: "edited", local_port: 2222, remote_port: 20031, use_encryption: true },
    });
    expect(e.body.data).toMatchObject({
      tun_name: "edited",
      local_port: 2222,
      remote_port: 20031,
      use_encryption: true,
    });
    const off = await t.api<TunnelView>("PATCH", "/user/tun", {
      token: u.token,
      body: { tun_id: x.tun_id, enabled: false },
    });
    expect(off.body.data.enabled).toBe(false);
    const on = await t.api<TunnelView>("PATCH", "/user/tun", {
      token: u.token,
      body: { tun_id: x.tun_id, enabled: true },
    });
    expect(on.body.data.enabled).toBe(true);
    const d = await t.api("DELETE", "/user/tun", { token: u.token, body: { tun_id: x.tun_id } });
    expect(d.body.code).toBe("SUCCESS");
    expect((await t.api("GET", `/user/tun/${x.tun_id}`, { token: u.token })).status).toBe(404);
    // the name and port are free again
    const again = await createTestTunnel(t, u.token, { node_id: own.node_id, tun_name: "edited", remote_port: 20031 });
    expect(again.remote_port).toBe(20031);
  });

  it("frees an http tunnel's domains when it is deleted and refuses editing into a taken domain", async () => {
    const u = await customer();
    const a = await createTestTunnel(t, u.token, {
      node_id: node.node_id,
      protocol: "http",
      custom_domains: ["d1.example.com"],
    });
    const b = await createTestTunnel(t, u.token, {
      node_id: node.node_id,
      protocol: "http",
      custom_domains: ["d2.example.com"],
    });
    const clash = await t.api("PATCH", "/user/tun", {
      token: u.token,
      body: { tun_id: b.tun_id, custom_domains: ["d1.example.com"] },
    });
    expect(clash.body.code).toBe(40001);
    await t.api("DELETE", "/user/tun", { token: u.token, body: { tun_id: a.tun_id } });
    const ok = await t.api<TunnelView>("PATCH", "/user/tun", {
      token: u.token,
      body: { tun_id: b.tun_id, custom_domains: ["d1.example.com"] },
    });
    expect(ok.body.data.custom_domains).toEqual(["d1.example.com"]);
    const badField = await t.api("PATCH", "/user/tun", {
      token: u.token,
      body: { tun_id: b.tun_id, remote_port: 20050 },
    });
    expect(badField.body.msg).toContain("remote_port");
  });
});

describe("nodes for customers (/user/node)", () => {
  it("lists on-shelf nodes at or below the plan's level, with protocols and ports, never secrets", async () => {
    const u = await customer({ level: 1 });
    const pro = await t.db.selectFrom("plan_levels").select("id").where("level", "=", 2).executeTakeFirstOrThrow();
    const high = await createTestNode(t, { level_id: pro.id }, admin);
    const off = await createTestNode(t, { status: -1 }, admin);
    const r = await t.api<Paged<UserNodeRow>>("GET", "/user/node", { token: u.token, query: { size: 100 } });
    const ids = r.body.data.list.map((n) => n.node_id);
    expect(ids).toContain(node.node_id);
    expect(ids).not.toContain(high.node_id);
    expect(ids).not.toContain(off.node_id);
    const mine = r.body.data.list.find((n) => n.node_id === node.node_id)!;
    expect(mine).toMatchObject({
      protocols: ["tcp", "udp", "http", "https"],
      port_min: 20000,
      port_max: 20100,
      area_name: "默认地区",
      net_type_name: "host",
      status: 2,
    });
    expect(mine.load.tunnels).toBeGreaterThan(0);
    const text = JSON.stringify(r.body.data);
    expect(text).not.toContain(node.plugin_secret);
    expect(text).not.toContain("dashboard-pass");
    expect(text).not.toContain("api_addr");
    const v = await customer({ level: 2 });
    const r2 = await t.api<Paged<UserNodeRow>>("GET", "/user/node", { token: v.token, query: { size: 100 } });
    expect(r2.body.data.list.map((n) => n.node_id)).toContain(high.node_id);
  });
});

// PostgreSQL only: SQLite runs one write transaction at a time, and reads wait behind it.
const RACES = onlyOn("postgres", "SQLite runs one write transaction at a time: the edit cannot race anything");
describe("an edit racing a delete or an operator's lock", RACES, () => {
  /** The customer's edit, held at the customer's lock (as a payment of theirs would hold it) while `meanwhile` runs. */
  async function editHeldWhile(meanwhile: (u: { uid: number; token: string }, tunId: number) => Promise<unknown>) {
    const u = await customer();
    const web = await createTestTunnel(t, u.token, { node_id: node.node_id, protocol: "http", subdomain: `a${u.uid}` });
    const edit = await whileHeld(
      t,
      holding(t, (trx) => lockUser(trx, u.uid)),
      () => t.api("PATCH", "/user/tun", { token: u.token, body: { tun_id: web.tun_id, subdomain: `b${u.uid}` } }),
      () => meanwhile(u, web.tun_id),
    );
    const domains = await t.db.selectFrom("tunnel_domains").select("domain").where("tun_id", "=", web.tun_id).execute();
    return { edit, domains: domains.map((d) => d.domain), tunId: web.tun_id };
  }

  it("refuses the edit of a tunnel deleted meanwhile: it gets no domains back (404)", async () => {
    const r = await editHeldWhile(async (u, tunId) => {
      const del = await t.api("DELETE", "/user/tun", { token: u.token, body: { tun_id: tunId } });
      expect(del.body.code).toBe("SUCCESS");
    });
    expect(r.edit.status).toBe(404);
    expect(r.domains).toEqual([]);
  });

  it("judges a tunnel created while a refund holds the customer by the plan after it", async () => {
    const u = await customer();
    // the refund of the customer's plan, committed while the creation waits for the customer
    const refund = holding(
      t,
      (trx) => lockUser(trx, u.uid),
      (trx) => trx.updateTable("subscriptions").set({ status: -2 }).where("uid", "=", u.uid).execute(),
    );
    const create = await whileHeld(t, refund, () =>
      t.api("POST", "/user/tun", {
        token: u.token,
        body: { tun_name: "late", protocol: "tcp", local_port: 22, node_id: node.node_id },
      }),
    );
    expect(create.body).toMatchObject({ code: 2001, msg: expect.stringContaining("没有生效中的套餐") });
    expect(await t.db.selectFrom("tunnels").select("tun_id").where("uid", "=", u.uid).execute()).toEqual([]);
  });

  it("refuses the edit of a tunnel an operator locked meanwhile (2001), keeping its domain", async () => {
    const r = await editHeldWhile(async (_u, tunId) => {
      const lock = await t.api("PATCH", "/super/tun", {
        token: admin,
        body: { tun_id: tunId, status: 3, banned_reason: "phishing" },
      });
      expect(lock.body.code).toBe("SUCCESS");
    });
    expect(r.edit.body).toMatchObject({ code: 2001, msg: "隧道已被锁定：phishing" });
    expect(r.domains).toEqual([expect.stringMatching(/^a\d+\./)]);
  });
});
