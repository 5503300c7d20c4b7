import type { Paged, ShieldBanRow } from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestNode, createTestTunnel, registerWithPlan } from "../../../test/frp-fixtures";
import { createTestApp, type TestApp } from "../../../test/harness";
import { listen } from "../../../test/sim-env";
import { frpRuntime } from "../frp/frp.routes";
import { MAX_NODE_STREAMS } from "./events";

/** What a node may write through POST /api/agent/events (security review: forged kinds, foreign customers, bounds). */
let t: TestApp;
type Node = Awaited<ReturnType<typeof createTestNode>>;
let a: Node;
let b: Node;

beforeAll(async () => {
  t = await createTestApp();
  a = await createTestNode(t, { agent_mode: 1 });
  b = await createTestNode(t);
});
afterAll(() => t.close());

const send = (n: Node, body: unknown) =>
  t.api<{ acked: number }>("POST", "/agent/events", {
    headers: { authorization: `Bearer ${n.node_id}.${n.plugin_secret}` },
    body,
  });
const decision = (seq: number, data: Record<string, unknown>) => ({
  seq,
  at: Date.now(),
  kind: "decision",
  data: { reason: "", count: 1, first: Date.now(), last: Date.now(), ...data },
});
const doctor = async (uid: number) => {
  await frpRuntime(t.ctx).writer.flush();
  return t.db.selectFrom("tunnel_events").select(["tun_id", "kind", "count"]).where("uid", "=", uid).execute();
};

describe("decision events", () => {
  it("refuses the console's own kinds and an unbounded count, naming the field, writing nothing", async () => {
    const u = await registerWithPlan(t);
    const tun = await createTestTunnel(t, u.token, { node_id: a.node_id });
    const stream = `k-${Date.now()}`;
    for (const kind of ["session_freed", "locked", "poller", "login_ok"]) {
      const r = await send(a, { stream, events: [decision(1, { tun_id: tun.tun_id, uid: u.uid, kind, count: 1000 })] });
      expect(r.status, kind).toBe(400);
      expect(r.body).toMatchObject({ code: 10000, data: { field: "events.0.data.kind" } });
    }
    for (const count of [0, 100_001, 1e15, 1.5]) {
      const r = await send(a, {
        stream,
        events: [decision(1, { tun_id: tun.tun_id, uid: u.uid, kind: "proxy_refused", count })],
      });
      expect(r.status, String(count)).toBe(400);
      expect(r.body).toMatchObject({ code: 10000, data: { field: "events.0.data.count" } });
    }
    expect(await doctor(u.uid)).toEqual([]);
    // 强制下线 is not rate-limited by anything a node wrote.
    const free = await t.api("POST", `/user/tun/${tun.tun_id}/free`, { token: u.token });
    expect(free.status).not.toBe(429);
  });
});

describe("logins and session refusals", () => {
  const about = (uid: number, seq: number) => [
    { seq, at: Date.now(), kind: "login", data: { uid, version: "0.70.1", address: "203.0.113.7:4000" } },
    decision(seq + 1, { tun_id: 0, uid, kind: "ping_refused", reason: "x" }),
  ];

  it("are recorded only for the node's own customers: a tunnel on it, or looked up by its agent", async () => {
    const theirs = await registerWithPlan(t);
    await createTestTunnel(t, theirs.token, { node_id: b.node_id });
    const mine = await registerWithPlan(t);
    await createTestTunnel(t, mine.token, { node_id: a.node_id });
    const stream = `o-${Date.now()}`;
    const r = await send(a, { stream, events: [...about(theirs.uid, 1), ...about(mine.uid, 3)] });
    // Skipped, not refused: the agent must not resend them forever.
    expect(r.body.data.acked).toBe(4);
    expect(await doctor(theirs.uid)).toEqual([]);
    expect((await doctor(mine.uid)).map((x) => x.kind).sort()).toEqual(["login_ok", "ping_refused"]);

    // A customer with no tunnel yet whom the node's agent looked up with their token (its stream open).
    const fresh = await registerWithPlan(t);
    const base = await listen(t);
    const stop = new AbortController();
    const res = await fetch(`${base}/api/agent/stream`, {
      headers: { authorization: `Bearer ${a.node_id}.${a.plugin_secret}` },
      signal: stop.signal,
    });
    try {
      await res.body?.getReader().read(); // the snapshot: the stream is open
      const { frp_token } = await t.db
        .selectFrom("users")
        .select("frp_token")
        .where("uid", "=", fresh.uid)
        .executeTakeFirstOrThrow();
      const look = await t.api<{ user: unknown }>("POST", "/agent/lookup", {
        headers: { authorization: `Bearer ${a.node_id}.${a.plugin_secret}` },
        body: { uid: fresh.uid, token: frp_token },
      });
      expect(look.body.data.user).not.toBeNull();
      await send(a, { stream, events: about(fresh.uid, 5) });
      expect((await doctor(fresh.uid)).map((x) => x.kind).sort()).toEqual(["login_ok", "ping_refused"]);
    } finally {
      stop.abort();
    }
  });
});

describe("a batch's cost", () => {
  it("hands each decision's count to the writer once, whatever the count", async () => {
    const u = await registerWithPlan(t);
    const tun = await createTestTunnel(t, u.token, { node_id: a.node_id });
    const writer = frpRuntime(t.ctx).writer;
    const spy = vi.spyOn(writer, "decision");
    try {
      const events = Array.from({ length: 500 }, (_, i) =>
        decision(i + 1, { tun_id: tun.tun_id, uid: u.uid, kind: "visitor_refused", reason: "r", count: 100_000 }),
      );
      const r = await send(a, { stream: `n-${Date.now()}`, events });
      expect(r.body.data.acked).toBe(500);
      expect(spy).toHaveBeenCalledTimes(500);
    } finally {
      spy.mockRestore();
    }
    const rows = await doctor(u.uid);
    expect(rows.reduce((n, x) => n + Number(x.count), 0)).toBe(500 * 100_000);
  });

  it(`keeps at most ${MAX_NODE_STREAMS} journals per node: a new one replaces the least recently used`, async () => {
    const c = await createTestNode(t, { agent_mode: 1 });
    const streams = await t.db
      .selectFrom("agent_cursors")
      .select(["stream", "updated_at"])
      .where("node_id", "=", c.node_id)
      .execute();
    expect(streams).toEqual([]);
    for (let i = 0; i < MAX_NODE_STREAMS; i++) {
      const r = await send(c, { stream: `s${i}`, events: [] });
      expect(r.body.code).toBe("SUCCESS");
    }
    // s3 is the one not heard from the longest.
    await t.db
      .updateTable("agent_cursors")
      .set({ updated_at: "2020-01-01T00:00:00.000Z" })
      .where("node_id", "=", c.node_id)
      .where("stream", "=", "s3")
      .execute();
    const r = await send(c, {
      stream: "fresh",
      events: [{ seq: 1, at: Date.now(), kind: "grace", data: { state: "left", policy: "keep" } }],
    });
    expect(r.body.data.acked).toBe(1);
    const kept = (
      await t.db.selectFrom("agent_cursors").select("stream").where("node_id", "=", c.node_id).execute()
    ).map((x) => x.stream);
    expect(kept).toHaveLength(MAX_NODE_STREAMS);
    expect(kept).toContain("fresh");
    expect(kept).not.toContain("s3");
    // Other nodes' journals are not touched.
    expect(
      await t.db.selectFrom("agent_cursors").select("stream").where("node_id", "=", a.node_id).execute(),
    ).not.toEqual([]);
  });
});

describe("visitor bans (访客防护, docs/shield.md)", () => {
  const ban = (seq: number, data: Record<string, unknown>) => ({
    seq,
    at: Date.now(),
    kind: "ban",
    data: {
      ip: "203.0.113.50",
      reason: "60 秒内新建连接超过 20 次",
      at: Date.now(),
      until: Date.now() + 3_600_000,
      ...data,
    },
  });
  const bansOf = async (token: string, tunId: number) =>
    (await t.api<Paged<ShieldBanRow>>("GET", `/user/tun/${tunId}/shield/bans`, { token })).body.data.list;

  it("are listed and streamed for the node's own tunnel, skipped for another node's, and capped at 30 days", async () => {
    const u = await registerWithPlan(t);
    const mine = await createTestTunnel(t, u.token, { node_id: a.node_id });
    const elsewhere = await createTestTunnel(t, u.token, { node_id: b.node_id });
    const r = await send(a, {
      stream: `ban-${Date.now()}`,
      events: [
        ban(1, { tun_id: mine.tun_id, uid: u.uid, until: Date.now() + 365 * 86_400_000 }),
        ban(2, { tun_id: elsewhere.tun_id, uid: u.uid, ip: "203.0.113.51" }),
      ],
    });
    expect(r.body.data.acked).toBe(2);
    await frpRuntime(t.ctx).writer.flush();
    const listed = await bansOf(u.token, mine.tun_id);
    expect(listed.map((x) => x.ip)).toEqual(["203.0.113.50"]);
    expect(Date.parse(listed[0].until)).toBeLessThanOrEqual(Date.now() + 30 * 86_400_000);
    expect(await bansOf(u.token, elsewhere.tun_id)).toEqual([]);
    // the decision state every process (and every agent's stream) reads carries it
    const entry = await frpRuntime(t.ctx).cache.user(u.uid);
    expect(entry?.tunnels.get(mine.tun_id)?.shield?.bans.map((x) => x.ip)).toEqual(["203.0.113.50"]);
  });

  it("are refused malformed, naming the field", async () => {
    const u = await registerWithPlan(t);
    const mine = await createTestTunnel(t, u.token, { node_id: a.node_id });
    const r = await send(a, {
      stream: `ban-bad-${Date.now()}`,
      events: [ban(1, { tun_id: mine.tun_id, uid: u.uid, ip: "" })],
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 10000, data: { field: "events.0.data.ip" } });
  });
});
