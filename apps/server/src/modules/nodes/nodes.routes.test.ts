import type { AdminNodeDetail, AdminNodeRow, NodeSetup, Paged } from "@burrow/contract";
import { parseToml, type TomlTable } from "@burrow/frps-sim";
import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { adminSuite } from "../../../test/admin-fixtures";
import { createTestNode, createTestTunnel, registerWithPlan, tunnelRow } from "../../../test/frp-fixtures";
import { onlyOn, type TestApp } from "../../../test/harness";
import { holding, whileHeld } from "../../../test/locks";
import type { DB } from "../../db/schema";
import { lockNode } from "./nodes.repository";

let t: TestApp;
let admin: string;
adminSuite((ready) => ({ t, admin } = ready), { PUBLIC_URL: "https://console.example.com" });

describe("nodes (/super/node)", () => {
  it("creates a node with generated secrets, lists it by name and shows secrets only in the detail", async () => {
    const n = await createTestNode(t, { name: "上海-01", api_password: undefined }, admin);
    expect(n).toMatchObject({ name: "上海-01", status: 2, area_name: "默认地区", net_type_name: "host", level: 1 });
    expect(n.plugin_secret).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(n.api_password.length).toBeGreaterThanOrEqual(12);
    expect(n.protocols).toEqual(["tcp", "udp", "http", "https"]);
    const list = await t.api<Paged<AdminNodeRow>>("GET", "/super/node", { token: admin, query: { name: "上海" } });
    expect(list.body.data.total).toBe(1);
    const row = list.body.data.list[0];
    expect(row).toMatchObject({ node_id: n.node_id, api_addr: "http://127.0.0.1:7500", load: { tunnels: 0 } });
    expect(JSON.stringify(row)).not.toContain(n.plugin_secret);
    expect(JSON.stringify(row)).not.toContain(n.api_password);
    const detail = await t.api<AdminNodeDetail>("GET", "/super/node/detail", {
      token: admin,
      query: { node_id: n.node_id },
    });
    expect(detail.body.data.plugin_secret).toBe(n.plugin_secret);
    const audit = await t.db
      .selectFrom("audit_logs")
      .select("detail")
      .where("target", "=", `node:${n.node_id}`)
      .execute();
    expect(audit).toHaveLength(1);
  });

  it("filters by area, network type and status", async () => {
    const area = await t.api<{ area_id: number }>("POST", "/super/area", {
      token: admin,
      body: { area_name: "节点筛选地区" },
    });
    const n = await createTestNode(t, { area_id: area.body.data.area_id, net_type_id: 3, status: -1 }, admin);
    const byArea = await t.api<Paged<AdminNodeRow>>("GET", "/super/node", {
      token: admin,
      query: { area_id: area.body.data.area_id, net_type_id: 3, status: -1 },
    });
    expect(byArea.body.data.list.map((x) => x.node_id)).toEqual([n.node_id]);
  });

  it("names the bad field and refuses unknown references, overlapping ports and duplicate names", async () => {
    const base = await createTestNode(t, {}, admin);
    const cases: [Record<string, unknown>, string, number][] = [
      [{ port_min: 30000, port_max: 20000 }, "port_max", 10000],
      [{ host: "not a host!" }, "host", 10000],
      [{ api_addr: "ftp://x" }, "api_addr", 10000],
      [{ area_id: 99999 }, "area_id", 10000],
      [{ level_id: 99999 }, "level_id", 10000],
      [{ bind_port: 20050 }, "port_min", 10000],
      [{ vhost_https_port: 80 }, "vhost_https_port", 10000],
      [{ name: base.name }, "name", 40008],
    ];
    for (const [body, field, code] of cases) {
      const r = await t.api("POST", "/super/node", {
        token: admin,
        body: {
          name: `x-${Math.random()}`,
          area_id: base.area_id,
          net_type_id: 1,
          level_id: base.level_id,
          host: "a.example.net",
          port_min: 20000,
          port_max: 20100,
          api_addr: "http://10.0.0.1:7500",
          vhost_http_port: 80,
          ...body,
        },
      });
      expect(r.body.code, JSON.stringify(body)).toBe(code);
      expect(r.body.msg).toContain(field === "name" ? "名称" : field);
    }
  });

  it("edits a node, takes it off and back on the shelf, and resets its secret", async () => {
    const n = await createTestNode(t, {}, admin);
    const e = await t.api<AdminNodeDetail>("PATCH", "/super/node", {
      token: admin,
      body: { node_id: n.node_id, description: "新描述", bandwidth: 50, vhost_https_port: null },
    });
    expect(e.body.data).toMatchObject({
      description: "新描述",
      bandwidth: 50,
      vhost_https_port: null,
      protocols: ["tcp", "udp", "http"],
    });
    const off = await t.api<AdminNodeDetail>("PATCH", "/super/node", {
      token: admin,
      body: { node_id: n.node_id, status: -1 },
    });
    expect(off.body.data.status).toBe(-1);
    const on = await t.api<AdminNodeDetail>("PATCH", "/super/node", {
      token: admin,
      body: { node_id: n.node_id, status: 2 },
    });
    expect(on.body.data.status).toBe(2);
    const reset = await t.api<AdminNodeDetail>("PATCH", "/super/node", {
      token: admin,
      body: { node_id: n.node_id, reset_secret: true },
    });
    expect(reset.body.data.plugin_secret).not.toBe(n.plugin_secret);
    const old = await t.app.inject({
      method: "POST",
      url: `/api/frp/plugin/${n.node_id}/${n.plugin_secret}?op=Ping&version=0.1.0`,
      payload: { version: "0.1.0", op: "Ping", content: { user: { user: "u_1", metas: null, run_id: "x" } } },
    });
    expect(old.statusCode).toBe(403);
  });

  it("refuses changes that would strand live tunnels, and deleting a node that still has tunnels", async () => {
    const n = await createTestNode(t, {}, admin);
    const u = await registerWithPlan(t);
    const tun = await createTestTunnel(t, u.token, { node_id: n.node_id, remote_port: 20090 });
    await createTestTunnel(t, u.token, { node_id: n.node_id, protocol: "http", subdomain: `s${u.uid}` });
    const shrink = await t.api("PATCH", "/super/node", { token: admin, body: { node_id: n.node_id, port_max: 20050 } });
    expect(shrink.body.code).toBe(2001);
    const noHttp = await t.api("PATCH", "/super/node", {
      token: admin,
      body: { node_id: n.node_id, vhost_http_port: null },
    });
    expect(noHttp.body.code).toBe(2001);
    const sub = await t.api("PATCH", "/super/node", {
      token: admin,
      body: { node_id: n.node_id, subdomain_host: "other.example.net" },
    });
    expect(sub.body.code).toBe(2001);
    const del = await t.api("DELETE", "/super/node", { token: admin, body: { node_id: n.node_id } });
    expect(del.body.code).toBe(2001);
    expect(del.body.msg).toContain("2 条隧道");
    const listed = await t.api<Paged<AdminNodeRow>>("GET", "/super/node", { token: admin, query: { name: n.name } });
    expect(listed.body.data.list[0].load.tunnels).toBe(2);

    for (const row of await t.db.selectFrom("tunnels").select("tun_id").where("node_id", "=", n.node_id).execute())
      await t.api("DELETE", "/user/tun", { token: u.token, body: { tun_id: row.tun_id } });
    expect(tun.remote_port).toBe(20090);
    expect((await t.api("DELETE", "/super/node", { token: admin, body: { node_id: n.node_id } })).body.code).toBe(
      "SUCCESS",
    );
    expect((await t.api("GET", "/super/node/detail", { token: admin, query: { node_id: n.node_id } })).status).toBe(
      404,
    );
  });

  it("refuses a subdomain host that a live tunnel's custom domain falls under (frps would refuse the domain)", async () => {
    const n = await createTestNode(t, {}, admin);
    const u = await t.register();
    // an http tunnel with its custom domain, as a verified domain gives it
    const web = await t.db
      .insertInto("tunnels")
      .values({
        ...tunnelRow({ uid: u.uid, node_id: n.node_id, tun_name: "site", remote_port: null as unknown as number }),
        protocol: "http",
        custom_domains: JSON.stringify(["www.shop-example.com"]),
      })
      .returning("tun_id")
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto("tunnel_domains")
      .values({ node_id: n.node_id, domain: "www.shop-example.com", tun_id: web.tun_id })
      .execute();
    const hostOf = async () =>
      (
        await t.db
          .selectFrom("nodes")
          .select("subdomain_host")
          .where("node_id", "=", n.node_id)
          .executeTakeFirstOrThrow()
      ).subdomain_host;
    for (const host of ["shop-example.com", "www.shop-example.com", "SHOP-example.com"]) {
      const r = await t.api("PATCH", "/super/node", {
        token: admin,
        body: { node_id: n.node_id, subdomain_host: host },
      });
      expect(r.body).toMatchObject({ code: 2001, msg: expect.stringContaining("1 条隧道的自定义域名") });
      expect(await hostOf()).toBe("frp.example.net");
    }
    // a host the domain is not under, and none at all
    for (const host of ["hop-example.com", "example.com.cn", null]) {
      const r = await t.api("PATCH", "/super/node", {
        token: admin,
        body: { node_id: n.node_id, subdomain_host: host },
      });
      expect(r.body.code).toBe("SUCCESS");
      expect(await hostOf()).toBe(host);
    }
  });
});

/** A transaction holding the node's row as a tunnel write ("key share") or a node edit ("update") does. */
const holdingNode = (nodeId: number, mode: "key share" | "update", then: (trx: Kysely<DB>) => Promise<unknown>) =>
  holding(t, (trx) => lockNode(trx, nodeId, mode), then);
/**
 * The races below exist on PostgreSQL only: SQLite runs one write transaction at a time, and
 * Burrow's reads wait behind it on the one connection.
 */
const racing = (name: string, fn: () => void) =>
  describe(name, onlyOn("postgres", "SQLite runs one write transaction at a time: there is no race"), fn);

racing("deleting a node while a tunnel is created on it", () => {
  it("counts a tunnel whose creation holds the node: the node is not deleted", async () => {
    const n = await createTestNode(t, {}, admin);
    const u = await t.register();
    const del = await whileHeld(
      t,
      holdingNode(n.node_id, "key share", (trx) =>
        trx
          .insertInto("tunnels")
          .values(tunnelRow({ uid: u.uid, node_id: n.node_id, tun_name: "in-flight", remote_port: 20099 }))
          .execute(),
      ),
      () => t.api("DELETE", "/super/node", { token: admin, body: { node_id: n.node_id } }),
    );
    expect(del.body).toMatchObject({ code: 2001, msg: expect.stringContaining("1 条隧道") });
    expect(await t.db.selectFrom("nodes").select("node_id").where("node_id", "=", n.node_id).execute()).toHaveLength(1);
  });

  it("refuses a tunnel on a node whose deletion holds it: no tunnel points at the deleted node", async () => {
    const n = await createTestNode(t, {}, admin);
    const u = await registerWithPlan(t);
    const create = await whileHeld(
      t,
      holdingNode(n.node_id, "update", (trx) => trx.deleteFrom("nodes").where("node_id", "=", n.node_id).execute()),
      () =>
        t.api("POST", "/user/tun", {
          token: u.token,
          body: { tun_name: "late", protocol: "tcp", local_port: 22, node_id: n.node_id },
        }),
    );
    expect(create.body).toMatchObject({ code: 10000, msg: expect.stringContaining("node_id") });
    expect(await t.db.selectFrom("tunnels").select("tun_id").where("node_id", "=", n.node_id).execute()).toEqual([]);
  });
});

racing("editing a node's ports while a tunnel is written on it", () => {
  const shrink = (nodeId: number) =>
    t.api("PATCH", "/super/node", { token: admin, body: { node_id: nodeId, port_max: 20050 } });
  const portMax = async (nodeId: number) =>
    (await t.db.selectFrom("nodes").select("port_max").where("node_id", "=", nodeId).executeTakeFirstOrThrow())
      .port_max;

  it("counts a tunnel whose creation holds the node: the range does not shrink past it", async () => {
    const n = await createTestNode(t, {}, admin);
    const u = await t.register();
    const edit = await whileHeld(
      t,
      holdingNode(n.node_id, "key share", (trx) =>
        trx
          .insertInto("tunnels")
          .values(tunnelRow({ uid: u.uid, node_id: n.node_id, tun_name: "in-flight", remote_port: 20090 }))
          .execute(),
      ),
      () => shrink(n.node_id),
    );
    expect(edit.body).toMatchObject({ code: 2001, msg: expect.stringContaining("1 条隧道的远程端口") });
    expect(await portMax(n.node_id)).toBe(20100);
  });

  it("checks a tunnel created during the edit against the new range", async () => {
    const n = await createTestNode(t, {}, admin);
    const u = await registerWithPlan(t);
    const create = await whileHeld(
      t,
      holdingNode(n.node_id, "update", (trx) =>
        trx.updateTable("nodes").set({ port_max: 20050 }).where("node_id", "=", n.node_id).execute(),
      ),
      () =>
        t.api("POST", "/user/tun", {
          token: u.token,
          body: { tun_name: "late", protocol: "tcp", local_port: 22, node_id: n.node_id, remote_port: 20090 },
        }),
    );
    expect(create.body).toMatchObject({ code: 10000, msg: expect.stringContaining("20000-20050") });
    expect(await t.db.selectFrom("tunnels").select("tun_id").where("node_id", "=", n.node_id).execute()).toEqual([]);
  });

  it("checks a tunnel edited during the edit against the new range", async () => {
    const n = await createTestNode(t, {}, admin);
    const u = await registerWithPlan(t);
    const tun = await createTestTunnel(t, u.token, { node_id: n.node_id, protocol: "tcp", remote_port: 20010 });
    const move = await whileHeld(
      t,
      holdingNode(n.node_id, "update", (trx) =>
        trx.updateTable("nodes").set({ port_max: 20050 }).where("node_id", "=", n.node_id).execute(),
      ),
      () => t.api("PATCH", "/user/tun", { token: u.token, body: { tun_id: tun.tun_id, remote_port: 20090 } }),
    );
    expect(move.body).toMatchObject({ code: 10000, msg: expect.stringContaining("20000-20050") });
    const row = await t.db.selectFrom("tunnels").select("remote_port").where("tun_id", "=", tun.tun_id).execute();
    expect(row).toEqual([{ remote_port: 20010 }]);
  });
});

describe("deleting a node whose frps still held a deleted tunnel", () => {
  it("releases the tunnel's hold and domains, which no poll of the node could release any more", async () => {
    const n = await createTestNode(t, {}, admin);
    const u = await registerWithPlan(t);
    const web = await createTestTunnel(t, u.token, { node_id: n.node_id, protocol: "http", subdomain: `held${u.uid}` });
    // frps holds the proxy (a session), then the customer deletes the tunnel: it keeps its domains
    await t.db.updateTable("tunnels").set({ run_id: "run-held" }).where("tun_id", "=", web.tun_id).execute();
    await t.api("DELETE", "/user/tun", { token: u.token, body: { tun_id: web.tun_id } });
    const domains = () => t.db.selectFrom("tunnel_domains").select("domain").where("tun_id", "=", web.tun_id).execute();
    expect(await domains()).toHaveLength(1);
    expect((await t.api("DELETE", "/super/node", { token: admin, body: { node_id: n.node_id } })).body.code).toBe(
      "SUCCESS",
    );
    const row = await t.db
      .selectFrom("tunnels")
      .select(["status", "run_id"])
      .where("tun_id", "=", web.tun_id)
      .executeTakeFirst();
    expect(row).toEqual({ status: -1, run_id: null });
    expect(await domains()).toEqual([]);
  });
});

describe("node set-up (/super/node/setup)", () => {
  it("generates a valid frps.toml with ports, allowPorts, dashboard credentials and the plugin with all six ops", async () => {
    const n = await createTestNode(t, { api_addr: "http://10.1.2.3:7501", api_password: "dash-pass-123" }, admin);
    const r = await t.api<NodeSetup>("GET", "/super/node/setup", { token: admin, query: { node_id: n.node_id } });
    const s = r.body.data;
    expect(s.plugin_url).toBe(`https://console.example.com/api/frp/plugin/${n.node_id}/${n.plugin_secret}`);
    const toml = parseToml(s.frps_toml);
    expect(toml).toMatchObject({
      bindPort: 7000,
      vhostHTTPPort: 80,
      vhostHTTPSPort: 443,
      subDomainHost: "frp.example.net",
      allowPorts: [{ start: 20000, end: 20100 }],
      transport: { heartbeatTimeout: 60 },
      webServer: { addr: "0.0.0.0", port: 7501, user: "admin", password: "dash-pass-123" },
    });
    const [plugin] = toml.httpPlugins as TomlTable[];
    expect(plugin).toEqual({
      name: "burrow",
      addr: "https://console.example.com",
      path: `/api/frp/plugin/${n.node_id}/${n.plugin_secret}`,
      ops: ["Login", "NewProxy", "CloseProxy", "Ping", "NewWorkConn", "NewUserConn"],
      tlsVerify: true,
    });
    expect(s.recommended).toBe("host");
    expect(s.install.host).toContain("--network host");
    expect(s.install.host).toContain(s.frps_toml.trimEnd());
    expect(s.install.ipvlan).toContain("docker network create -d ipvlan");
    expect(s.install.macvlan).toContain("docker network create -d macvlan");
    expect(s.install.binary).toContain("systemctl enable --now burrow-frps");
    expect(s.install.binary).toContain("Environment=TZ=Asia/Shanghai");
  });

  it("recommends the install variant of the node's network type", async () => {
    for (const [netType, variant] of [
      [2, "ipvlan"],
      [3, "macvlan"],
    ] as const) {
      const n = await createTestNode(t, { net_type_id: netType }, admin);
      const r = await t.api<NodeSetup>("GET", "/super/node/setup", { token: admin, query: { node_id: n.node_id } });
      expect(r.body.data.recommended).toBe(variant);
    }
    const other = await t.api<{ id: number }>("POST", "/super/node/netType", {
      token: admin,
      body: { name: "独立服务器" },
    });
    const n = await createTestNode(t, { net_type_id: other.body.data.id }, admin);
    const r = await t.api<NodeSetup>("GET", "/super/node/setup", { token: admin, query: { node_id: n.node_id } });
    expect(r.body.data.recommended).toBe("binary");
  });

  it("keeps secrets and set-up away from customers", async () => {
    const u = await t.register();
    for (const [url, query] of [
      ["/super/node", {}],
      ["/super/node/detail", { node_id: 1 }],
      ["/super/node/setup", { node_id: 1 }],
    ] as const) {
      const r = await t.api("GET", url, { token: u.token, query });
      expect(r.status).toBe(403);
      expect(r.body.code).toBe(30004);
    }
  });
});
