import type { AdminNodeDetail, ShieldView, TunnelConfig, TunnelView } from "@burrow/contract";
import { describe, expect, it } from "vitest";
import { tunnelSuite } from "../../../test/domain-fixtures";
import { createTestNode, createTestTunnel, setPlan } from "../../../test/frp-fixtures";
import { onlyOn, type TestApp } from "../../../test/harness";
import { holding, whileHeld } from "../../../test/locks";
import { lockNode } from "../nodes/nodes.repository";

/* Port-range tunnels (issue 33 item 5): validation, overlaps, the plan's per-tunnel limit, frpc.toml. */

let t: TestApp;
let admin: string;
tunnelSuite((ready) => ({ t, admin } = ready));

async function customer(plan: Parameters<typeof setPlan>[2] = {}) {
  const u = await t.register();
  await setPlan(t, u.uid, plan);
  return u;
}

/** A node of the test's own (fixed ports), ports 20000-20100 unless given. */
const ownNode = (o: Record<string, unknown> = {}): Promise<AdminNodeDetail> => createTestNode(t, o, admin);

const create = (token: string, body: Record<string, unknown>) =>
  t.api<TunnelView>("POST", "/user/tun", {
    token,
    body: { tun_name: `r${Math.random().toString(36).slice(2, 8)}`, protocol: "tcp", local_port: 22, ...body },
  });

const liveCount = async (nodeId: number) =>
  Number(
    (
      await t.db
        .selectFrom("tunnels")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("node_id", "=", nodeId)
        .where("status", "<>", -1)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("creating a port-range tunnel", () => {
  it("holds every port of the range, shows 6000–6010 and writes one proxy per port pair into frpc.toml", async () => {
    const u = await customer();
    const node = await ownNode();
    const r = await create(u.token, {
      node_id: node.node_id,
      protocol: "udp",
      remote_port: 20010,
      remote_port_end: 20012,
    });
    expect(r.body.code).toBe("SUCCESS");
    expect(r.body.data).toMatchObject({
      remote_port: 20010,
      remote_port_end: 20012,
      addresses: ["node.example.net:20010–20012"],
    });
    const id = r.body.data.tun_id;
    const detail = await t.api<TunnelView>("GET", `/user/tun/${id}`, { token: u.token });
    expect(detail.body.data.remote_port_end).toBe(20012);

    const cfg = await t.api<TunnelConfig>("GET", "/user/tun/config", { token: u.token, query: { tun_id: id } });
    const toml = cfg.body.data.toml;
    // Remote port 20010 + i forwards to local port 22 + i, as frp's own range mapping pairs them.
    for (const [i, p] of [20010, 20011, 20012].entries()) {
      expect(toml).toContain(
        `name = "t_${id}_${p}"\ntype = "udp"\nlocalIP = "127.0.0.1"\nlocalPort = ${22 + i}\nremotePort = ${p}\n`,
      );
    }
    expect(toml).not.toContain(`name = "t_${id}"\n`);
    expect(toml.match(/\[\[proxies\]\]/g)).toHaveLength(3);
  });

  it("refuses a malformed range naming remote_port_end (10000), creating nothing", async () => {
    const u = await customer();
    const node = await ownNode({ port_min: 20000, port_max: 20050 });
    const bad: [Record<string, unknown>, string][] = [
      [{ remote_port: 20010, remote_port_end: 20010 }, "结束端口须大于起始端口"],
      [{ remote_port: 20010, remote_port_end: 20005 }, "结束端口须大于起始端口"],
      [{ remote_port: 1000, remote_port_end: 1100 }, "最多 100 个端口"],
      [{ remote_port_end: 20010 }, "起始端口"],
      [{ remote_port: 20040, remote_port_end: 20060 }, "20000-20050"],
      [{ protocol: "http", subdomain: `s${u.uid}`, remote_port_end: 20010 }, "仅适用于 tcp、udp"],
      [{ local_port: 65535, remote_port: 20010, remote_port_end: 20011 }, "超出 65535"],
    ];
    for (const [body, msg] of bad) {
      const r = await create(u.token, { node_id: node.node_id, ...body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.code).toBe(10000);
      expect(r.body.msg).toContain("remote_port_end");
      expect(r.body.msg).toContain(msg);
    }
    expect(await liveCount(node.node_id)).toBe(0);
    // Nor on an edit of a tunnel that takes no range.
    const web = await createTestTunnel(t, u.token, { node_id: node.node_id, protocol: "http", subdomain: `w${u.uid}` });
    const edit = await t.api("PATCH", "/user/tun", {
      token: u.token,
      body: { tun_id: web.tun_id, remote_port_end: 20010 },
    });
    expect(edit.status).toBe(400);
    expect(edit.body.msg).toContain("remote_port_end");
  });

  it("refuses a range over a port another tunnel holds, and a port inside another's range (40001)", async () => {
    const a = await customer({ tunnel_peer_port_limit: 20 });
    const b = await customer({ tunnel_peer_port_limit: 20 });
    const node = await ownNode();
    await createTestTunnel(t, a.token, { node_id: node.node_id, remote_port: 20025 });
    const over = await create(b.token, { node_id: node.node_id, remote_port: 20020, remote_port_end: 20030 });
    expect(over.status).toBe(409);
    expect(over.body.code).toBe(40001);
    expect(over.body.msg).toContain("20025");

    await createTestTunnel(t, a.token, { node_id: node.node_id, remote_port: 20040, remote_port_end: 20045 });
    const inside = await create(b.token, { node_id: node.node_id, remote_port: 20043 });
    expect(inside.body.code).toBe(40001);
    expect(inside.body.msg).toContain("20043");
    const overlapping = await create(b.token, { node_id: node.node_id, remote_port: 20035, remote_port_end: 20040 });
    expect(overlapping.body.code).toBe(40001);
    expect(overlapping.body.msg).toContain("20040");
    // Next to it is free; an edit of the range itself does not collide with its own ports.
    const next = await create(b.token, { node_id: node.node_id, remote_port: 20046, remote_port_end: 20048 });
    expect(next.body.code).toBe("SUCCESS");
    const widen = await t.api<TunnelView>("PATCH", "/user/tun", {
      token: b.token,
      body: { tun_id: next.body.data.tun_id, remote_port_end: 20050 },
    });
    expect(widen.body.data.remote_port_end).toBe(20050);
    const intoA = await t.api("PATCH", "/user/tun", {
      token: b.token,
      body: { tun_id: next.body.data.tun_id, remote_port: 20044 },
    });
    expect(intoA.body.code).toBe(40001);
  });

  it("never picks a random port inside a range", async () => {
    const u = await customer();
    const node = await ownNode({ port_min: 20000, port_max: 20005 });
    await createTestTunnel(t, u.token, { node_id: node.node_id, remote_port: 20000, remote_port_end: 20004 });
    const random = await createTestTunnel(t, u.token, { node_id: node.node_id });
    expect(random.remote_port).toBe(20005);
  });

  it("counts each port against tunnel_peer_port_limit (2001), on create and on edit", async () => {
    const u = await customer({ tunnel_peer_port_limit: 5 });
    const node = await ownNode();
    const wide = await create(u.token, { node_id: node.node_id, remote_port: 20060, remote_port_end: 20065 });
    expect(wide.status).toBe(403);
    expect(wide.body.code).toBe(2001);
    expect(wide.body.msg).toContain("tunnel_peer_port_limit");
    const ok = await create(u.token, { node_id: node.node_id, remote_port: 20060, remote_port_end: 20064 });
    expect(ok.body.code).toBe("SUCCESS");
    const widen = await t.api("PATCH", "/user/tun", {
      token: u.token,
      body: { tun_id: ok.body.data.tun_id, remote_port_end: 20065 },
    });
    expect(widen.body.code).toBe(2001);
    const row = await t.db
      .selectFrom("tunnels")
      .select("remote_port_end")
      .where("tun_id", "=", ok.body.data.tun_id)
      .executeTakeFirstOrThrow();
    expect(row.remote_port_end).toBe(20064);
    // Back to a single port: null ends the range.
    const single = await t.api<TunnelView>("PATCH", "/user/tun", {
      token: u.token,
      body: { tun_id: ok.body.data.tun_id, remote_port_end: null },
    });
    expect(single.body.data).toMatchObject({ remote_port: 20060, remote_port_end: null });
  });

  it("refuses turning on a range wider than the plan allows now (2001), alone or in a batch", async () => {
    const u = await customer({ tunnel_peer_port_limit: 5 });
    const node = await ownNode();
    const r = await create(u.token, {
      node_id: node.node_id,
      remote_port: 20070,
      remote_port_end: 20073,
    });
    expect(r.body.code).toBe("SUCCESS");
    const id = r.body.data.tun_id;
    const disabled = await t.api("PATCH", "/user/tun", { token: u.token, body: { tun_id: id, enabled: false } });
    expect(disabled.body.code).toBe("SUCCESS");
    await setPlan(t, u.uid, { tunnel_peer_port_limit: 3 });
    const on = await t.api("PATCH", "/user/tun", { token: u.token, body: { tun_id: id, enabled: true } });
    expect(on.body.code).toBe(2001);
    expect(on.body.msg).toContain("tunnel_peer_port_limit");
    const batch = await t.api("POST", "/user/tun/batch", { token: u.token, body: { action: "enable", tun_ids: [id] } });
    expect(JSON.stringify(batch.body)).toContain("tunnel_peer_port_limit");
    const row = await t.db.selectFrom("tunnels").select("enabled").where("tun_id", "=", id).executeTakeFirstOrThrow();
    expect(row.enabled).toBe(0);
    // Turning it off stays possible whatever the plan.
    const off = await t.api("PATCH", "/user/tun", { token: u.token, body: { tun_id: id, enabled: false } });
    expect(off.body.code).toBe("SUCCESS");
  });

  it("is flagged by an operator's port rule that covers any port of the range, naming that port", async () => {
    const u = await customer();
    const node = await ownNode();
    const rule = await t.api("POST", "/super/tun/illegal/rule", {
      token: admin,
      body: { kind: "port", value: "20077" },
    });
    expect(rule.body.code).toBe("SUCCESS");
    try {
      const r = await createTestTunnel(t, u.token, {
        node_id: node.node_id,
        remote_port: 20075,
        remote_port_end: 20078,
      });
      const flags = await t.db.selectFrom("tunnel_flags").select("reason").where("tun_id", "=", r.tun_id).execute();
      expect(flags.map((f) => f.reason)).toEqual([expect.stringContaining("禁止的端口 20077")]);
    } finally {
      const id = (rule.body.data as { id: number }).id;
      await t.api("DELETE", "/super/tun/illegal/rule", { token: admin, body: { id } });
    }
  });

  it("takes an abuse report naming any port of the range (the report finds the range's tunnel)", async () => {
    const u = await customer();
    // a host of its own: the report looks a tunnel up by the node's host and a port
    const node = await ownNode({ host: `report-${Date.now().toString(36)}.example.net` });
    const r = await createTestTunnel(t, u.token, { node_id: node.node_id, remote_port: 20050, remote_port_end: 20053 });
    const report = await t.api("POST", "/public/abuse", {
      body: { target: `${node.host}:20052`, reason: "扫描" },
      ip: "192.0.2.151",
    });
    expect(report.body.code).toBe("SUCCESS");
    const flags = await t.db.selectFrom("tunnel_flags").select("source").where("tun_id", "=", r.tun_id).execute();
    expect(flags).toEqual([{ source: "report" }]);
    const past = await t.api("POST", "/public/abuse", {
      body: { target: `${node.host}:20054`, reason: "扫描" },
      ip: "192.0.2.151",
    });
    expect(past.body.code).toBe(10000);
  });

  it("turns the visitor shield's ban rule on by default when the range holds port 22, 3389 or 5900", async () => {
    const u = await customer();
    const node = await ownNode({ port_min: 3380, port_max: 3400 });
    const rdp = await createTestTunnel(t, u.token, { node_id: node.node_id, remote_port: 3388, remote_port_end: 3390 });
    const beside = await createTestTunnel(t, u.token, {
      node_id: node.node_id,
      remote_port: 3391,
      remote_port_end: 3393,
    });
    const shield = async (id: number) =>
      (await t.api<ShieldView>("GET", `/user/tun/${id}/shield`, { token: u.token })).body.data;
    expect(await shield(rdp.tun_id)).toMatchObject({ defaults: true, rule_enabled: true });
    expect(await shield(beside.tun_id)).toMatchObject({ defaults: true, rule_enabled: false });
  });

  it("lets no other customer see or edit a range tunnel (404)", async () => {
    const a = await customer();
    const b = await customer();
    const node = await ownNode();
    const mine = await createTestTunnel(t, a.token, {
      node_id: node.node_id,
      remote_port: 20070,
      remote_port_end: 20072,
    });
    const edit = await t.api("PATCH", "/user/tun", {
      token: b.token,
      body: { tun_id: mine.tun_id, remote_port_end: 20080 },
    });
    expect(edit.status).toBe(404);
    expect((await t.api("GET", `/user/tun/${mine.tun_id}`, { token: b.token })).status).toBe(404);
    const cfg = await t.api("GET", "/user/tun/config", { token: b.token, query: { tun_id: mine.tun_id } });
    expect(cfg.status).toBe(404);
  });
});

// PostgreSQL only: SQLite runs one write transaction at a time.
const RACES = onlyOn("postgres", "SQLite runs one write transaction at a time: two writes cannot race");
describe("a port range and its node (review 6)", () => {
  it("moves to another start on another node, keeping its width", async () => {
    const u = await customer();
    const from = await ownNode();
    const to = await ownNode({ port_min: 30000, port_max: 30100 });
    const r = await create(u.token, { node_id: from.node_id, remote_port: 20020, remote_port_end: 20022 });
    expect(r.body.code).toBe("SUCCESS");
    const moved = await t.api<TunnelView>("POST", "/user/tun/move", {
      token: u.token,
      body: { tun_id: r.body.data.tun_id, node_id: to.node_id, remote_port: 30050 },
    });
    expect(moved.body.code).toBe("SUCCESS");
    expect(moved.body.data).toMatchObject({ node_id: to.node_id, remote_port: 30050, remote_port_end: 30052 });
  });

  it("keeps the node's port range from shrinking below a range's end (2001), changing nothing", async () => {
    const u = await customer();
    const node = await ownNode();
    expect(
      (await create(u.token, { node_id: node.node_id, remote_port: 20098, remote_port_end: 20100 })).body.code,
    ).toBe("SUCCESS");
    const narrowed = await t.api("PATCH", "/super/node", {
      token: admin,
      body: { node_id: node.node_id, port_max: 20099 },
    });
    expect(narrowed.body.code).toBe(2001);
    const row = await t.db
      .selectFrom("nodes")
      .select("port_max")
      .where("node_id", "=", node.node_id)
      .executeTakeFirstOrThrow();
    expect(row.port_max).toBe(20100);
  });
});

describe("a range racing another tunnel write on the node", RACES, () => {
  it("waits for a write in flight on the node and then sees its port (40001)", async () => {
    const a = await customer();
    const b = await customer({ tunnel_peer_port_limit: 20 });
    const node = await ownNode();
    const other = await createTestTunnel(t, a.token, { node_id: node.node_id, remote_port: 20090 });
    // Another customer's edit in flight, as writeTunnel holds it: the node's key share, its port
    // moved into the range, not committed yet. No unique index sees the overlap.
    const inFlight = holding(
      t,
      (trx) => lockNode(trx, node.node_id, "key share"),
      (trx) => trx.updateTable("tunnels").set({ remote_port: 20083 }).where("tun_id", "=", other.tun_id).execute(),
    );
    const r = await whileHeld(t, inFlight, () =>
      create(b.token, { node_id: node.node_id, remote_port: 20080, remote_port_end: 20085 }),
    );
    await inFlight.done;
    expect(r.body.code).toBe(40001);
    expect(r.body.msg).toContain("20083");
  });
});
