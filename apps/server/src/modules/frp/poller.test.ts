import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { AdminNodeRow, NodePollResult, Paged } from "@burrow/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestNode } from "../../../test/frp-fixtures";
import type { TestApp } from "../../../test/harness";
import { noon, pollerSuite, today } from "../../../test/poll-fixtures";
import { frpcFor, type SimNode } from "../../../test/sim-env";
import { acquireLease } from "../../shared/jobs";
import { addDays, shanghaiDayStart } from "../../shared/time";
import { counterDelta } from "./counters";
import { frpRuntime } from "./frp.routes";
import { PollConflict } from "./poll-guards";
import { pollNode } from "./poll-node";
import { pollAll, pruneConnections } from "./poller";

/* The poll of one node (health, a node deleted meanwhile) and of all (leases, overlap, pruning). */

const suite = pollerSuite();
const { simNode, customerOn, tunnel, clientOn } = suite;
let t: TestApp;
let admin: string;
beforeAll(() => {
  ({ t, admin } = suite.get());
});

describe("counter arithmetic", () => {
  it("treats a counter that went back as reset", () => {
    expect(counterDelta(100, 150)).toBe(50);
    expect(counterDelta(100, 30)).toBe(30);
    expect(counterDelta(0, 0)).toBe(0);
  });
});

describe("node health", () => {
  it("marks a healthy node online (1) and records its dashboard snapshot", async () => {
    const { node } = await simNode();
    const r = await pollNode(t.ctx, node.node_id, { now: noon(today) });
    expect(r).toMatchObject({ status: 1, error: null });
    const row = await t.db
      .selectFrom("nodes")
      .select("status")
      .where("node_id", "=", node.node_id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe(1);
    const rt = await t.db
      .selectFrom("node_runtime")
      .selectAll()
      .where("node_id", "=", node.node_id)
      .executeTakeFirstOrThrow();
    expect(rt).toMatchObject({ version: "0.70.1", last_error: null });
  });

  it("marks an unreachable node offline (2) and a node refusing the credentials as exception (3)", async () => {
    const down = await createTestNode(t, { api_addr: "http://127.0.0.1:9" }, admin);
    const r = await pollNode(t.ctx, down.node_id, { now: noon(today), timeoutMs: 2000 });
    expect(r?.status).toBe(2);
    expect(r?.error).toContain("无法连接");

    const { node } = await simNode();
    await t.api("PATCH", "/super/node", {
      token: admin,
      body: { node_id: node.node_id, api_password: "wrong-password" },
    });
    const bad = await pollNode(t.ctx, node.node_id, { now: noon(today) });
    expect(bad?.status).toBe(3);
    const rt = await t.db
      .selectFrom("node_runtime")
      .select("last_error")
      .where("node_id", "=", node.node_id)
      .executeTakeFirstOrThrow();
    expect(rt.last_error).toContain("401");
  });

  it("polls a node on demand (POST /super/node/poll, 立即检测) and says what it found", async () => {
    const { node } = await simNode();
    const ok = await t.api<NodePollResult>("POST", "/super/node/poll", {
      token: admin,
      body: { node_id: node.node_id },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ node_id: node.node_id, status: 1, error: null, restarted: false });
    const list = await t.api<Paged<AdminNodeRow>>("GET", "/super/node", { token: admin, query: { name: node.name } });
    expect(list.body.data.list[0].runtime.last_poll_at).not.toBeNull();

    await t.api("PATCH", "/super/node", {
      token: admin,
      body: { node_id: node.node_id, api_password: "wrong-password" },
    });
    const bad = await t.api<NodePollResult>("POST", "/super/node/poll", {
      token: admin,
      body: { node_id: node.node_id },
    });
    expect(bad.body.data).toMatchObject({ status: 3 });
    expect(bad.body.data.error).toContain("401");

    await t.api("PATCH", "/super/node", { token: admin, body: { node_id: node.node_id, status: -1 } });
    const shelved = await t.api("POST", "/super/node/poll", { token: admin, body: { node_id: node.node_id } });
    expect(shelved.status).toBe(403);
    expect((await t.api("POST", "/super/node/poll", { token: admin, body: { node_id: 999_999 } })).status).toBe(404);
    const invalid = await t.api("POST", "/super/node/poll", { token: admin, body: { node_id: "x" } });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ code: 10000, data: { field: "node_id" } });
    const u = await t.register();
    expect((await t.api("POST", "/super/node/poll", { token: u.token, body: { node_id: node.node_id } })).status).toBe(
      403,
    );
  });

  it("marks a reachable address that is not a frps dashboard as exception (3)", async () => {
    const origin = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const notFrps = await createTestNode(t, { api_addr: origin }, admin);
    expect((await pollNode(t.ctx, notFrps.node_id, { now: noon(today) }))?.status).toBe(3);
  });

  it("does not poll an off-shelf node", async () => {
    const { node } = await simNode();
    await t.api("PATCH", "/super/node", { token: admin, body: { node_id: node.node_id, status: -1 } });
    expect(await pollNode(t.ctx, node.node_id, { now: noon(today) })).toBeNull();
    const results = await pollAll(t.ctx, { now: noon(today, 3_600_000) });
    expect(results.map((r) => r.node_id)).not.toContain(node.node_id);
  });

  it("reads the snake_case, text/plain dashboards of frps ≤ 0.52.0 (an exception for its version, still billed)", async () => {
    const { node, u, c } = await clientOn({ sim: { version: "0.52.0" } });
    await c.visit(`t_${u.tcp.tun_id}`, { bytesIn: 7, bytesOut: 9 });
    const r = await pollNode(t.ctx, node.node_id, { now: noon(today) });
    expect(r).toMatchObject({ status: 3, proxies: 1, charged: 16 });
    expect(r?.error).toContain("0.52.0");
  });
});

/**
 * The node's dashboard behind a proxy that deletes the node (as an operator would) when the poll
 * first asks for the proxy list, then answers as the dashboard does (the list with `status` when
 * given). `deleted()` is the deletion's answer code.
 */
async function deletedMidPoll(sim: SimNode, opts: { status?: number } = {}) {
  let deletion: Promise<unknown> | undefined;
  const server = createServer(async (req, res) => {
    const list = req.url?.startsWith("/api/proxy/");
    if (list)
      deletion ??= t
        .api("DELETE", "/super/node", { token: admin, body: { node_id: sim.node.node_id } })
        .then((r) => r.body.code);
    await deletion;
    if (list && opts.status) return void res.writeHead(opts.status).end();
    const r = await fetch(`${sim.sim.dashboardUrl}${req.url}`, {
      headers: { authorization: req.headers.authorization ?? "" },
    });
    res.writeHead(r.status, { "content-type": "application/json" }).end(await r.text());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  await t.db
    .updateTable("nodes")
    .set({ api_addr: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })
    .where("node_id", "=", sim.node.node_id)
    .execute();
  return { deleted: () => deletion, close: () => new Promise((r) => server.close(r)) };
}

describe("a node deleted while it is polled", () => {
  const leftOf = async (nodeId: number) => ({
    runtime: await t.db.selectFrom("node_runtime").select("node_id").where("node_id", "=", nodeId).execute(),
    counters: await t.db.selectFrom("proxy_counters").select("proxy_name").where("node_id", "=", nodeId).execute(),
    kicks: await t.db.selectFrom("frp_kicks").select("uid").where("node_id", "=", nodeId).execute(),
  });
  const nothing = { runtime: [], counters: [], kicks: [] };

  /** A customer's deleted tunnel that frps still shows online: held until frps lets go. */
  async function heldTunnel(s: SimNode) {
    const u = await customerOn(s.node.node_id);
    const c = await frpcFor(t, s.sim, u.token, s.node.node_id);
    await c.start();
    await frpRuntime(t.ctx).writer.flush();
    await t.api("DELETE", "/user/tun", { token: u.token, body: { tun_id: u.tcp.tun_id } });
    expect(await tunnel(u.tcp.tun_id)).toMatchObject({ status: -1, run_id: expect.any(String) });
    // a kick, which the deletion drops too (forgetNode)
    const at = new Date().toISOString();
    await t.db
      .insertInto("frp_kicks")
      .values({ uid: u.uid, node_id: s.node.node_id, inflight: 1, remaining: 0, created_at: at, until: at })
      .execute();
    return { u, c };
  }

  for (const [when, at] of [
    ["at noon", noon(today)],
    // the poll that leaves traffic for later still makes status follow the dashboard
    ["a minute before midnight (traffic deferred)", new Date(shanghaiDayStart(addDays(today, 1)).getTime() - 30_000)],
  ] as const)
    it(`writes nothing back ${when}: no counters, runtime row or kick, and the held tunnel stays released`, async () => {
      const s = await simNode();
      const { u, c } = await heldTunnel(s);
      const proxy = await deletedMidPoll(s);
      expect(await pollNode(t.ctx, s.node.node_id, { now: at })).toBeNull();
      expect(await proxy.deleted()).toBe("SUCCESS");
      expect(await tunnel(u.tcp.tun_id)).toMatchObject({ status: -1, run_id: null });
      expect(await leftOf(s.node.node_id)).toEqual(nothing);
      await proxy.close();
      await c.stop();
    });

  it("records no health for it when the dashboard then fails", async () => {
    const s = await simNode();
    await pollNode(t.ctx, s.node.node_id, { now: noon(today) });
    const proxy = await deletedMidPoll(s, { status: 502 });
    expect(await pollNode(t.ctx, s.node.node_id, { now: noon(today, 30_000) })).toBeNull();
    expect(await proxy.deleted()).toBe("SUCCESS");
    expect(await leftOf(s.node.node_id)).toEqual(nothing);
    await proxy.close();
  });

  it("says 404 to an operator's poll of it", async () => {
    const s = await simNode();
    const proxy = await deletedMidPoll(s);
    const r = await t.api("POST", "/super/node/poll", { token: admin, body: { node_id: s.node.node_id } });
    expect(r.status).toBe(404);
    expect(await proxy.deleted()).toBe("SUCCESS");
    expect(await leftOf(s.node.node_id)).toEqual(nothing);
    await proxy.close();
  });
});

describe("pollAll", () => {
  it("polls each node once per lease, so several processes never poll a node twice", async () => {
    const { node } = await simNode();
    const at = noon(today, 2 * 3600_000);
    const polled = async (holder: string, plusMs: number) =>
      (await pollAll(t.ctx, { now: new Date(at.getTime() + plusMs), leaseMs: 25_000, holder })).map((r) => r.node_id);
    expect(await polled("process-a", 0)).toContain(node.node_id);
    expect(await polled("process-b", 1_000)).not.toContain(node.node_id);
    expect(await polled("process-b", 30_000)).toContain(node.node_id);
    expect(await polled("process-a", 31_000)).not.toContain(node.node_id);
    expect(
      await acquireLease(t.db, `frp-poll:${node.node_id}`, 25_000, "process-c", new Date(at.getTime() + 40_000)),
    ).toBe(false);
  });

  it("never counts bytes twice when two polls of one node overlap", async () => {
    const { node, u, c } = await clientOn();
    await pollNode(t.ctx, node.node_id, { now: noon(today) });
    await c.visit(`t_${u.tcp.tun_id}`, { bytesIn: 1000, bytesOut: 0 });
    const both = await Promise.allSettled([
      pollNode(t.ctx, node.node_id, { now: noon(today, 30_000) }),
      pollNode(t.ctx, node.node_id, { now: noon(today, 30_000) }),
    ]);
    const done = both.filter((r) => r.status === "fulfilled");
    const lost = both.filter((r) => r.status === "rejected");
    expect(done).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect((lost[0] as PromiseRejectedResult).reason).toBeInstanceOf(PollConflict);
    expect(await tunnel(u.tcp.tun_id)).toMatchObject({ traffic_in: 1000 });
    await c.stop();
  });

  it("prunes visitor connections past the retention", async () => {
    const { node } = await simNode();
    const u = await customerOn(node.node_id);
    const old = new Date(Date.now() - 30 * 86_400_000).toISOString();
    await t.db
      .insertInto("tunnel_conns")
      .values({
        tun_id: u.tcp.tun_id,
        uid: u.uid,
        node_id: node.node_id,
        proxy_type: "tcp",
        remote_addr: "1.2.3.4:5",
        created_at: old,
      })
      .execute();
    expect(await pruneConnections(t.ctx, new Date(Date.now() + 7200_000))).toBeGreaterThanOrEqual(1);
    const left = await t.db.selectFrom("tunnel_conns").select("id").where("created_at", "=", old).execute();
    expect(left).toEqual([]);
  });
});
