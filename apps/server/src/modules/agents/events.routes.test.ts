import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestNode, createTestTunnel, registerWithPlan } from "../../../test/frp-fixtures";
import { createTestApp, type TestApp } from "../../../test/harness";
import { frpRuntime } from "../frp/frp.routes";

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
