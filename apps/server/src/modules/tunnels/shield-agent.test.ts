import type { ShieldBanRow } from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestNode, createTestTunnel, registerWithPlan } from "../../../test/frp-fixtures";
import { createTestApp, type TestApp } from "../../../test/harness";
import { frpRuntime } from "../frp/frp.routes";

/* 访客防护 in agent mode: a ban a node's agent decided comes back in its journal, is listed, and travels to every process. */

let t: TestApp;
type Node = Awaited<ReturnType<typeof createTestNode>>;
let a: Node;
let b: Node;
beforeAll(async () => {
  t = await createTestApp();
  a = await createTestNode(t, { agent_mode: 1 });
  b = await createTestNode(t, { agent_mode: 1 });
});
afterAll(() => t.close());

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
const send = (n: Node, events: unknown[]) =>
  t.api<{ acked: number }>("POST", "/agent/events", {
    headers: { authorization: `Bearer ${n.node_id}.${n.plugin_secret}` },
    body: { stream: `s-${n.node_id}-${Date.now()}`, events },
  });

describe("a node agent's ban", () => {
  it("is listed and streamed for the node's own tunnel, skipped for another node's, and capped at 30 days", async () => {
    const u = await registerWithPlan(t);
    const mine = await createTestTunnel(t, u.token, { node_id: a.node_id });
    const elsewhere = await createTestTunnel(t, u.token, { node_id: b.node_id });
    const r = await send(a, [
      ban(1, { tun_id: mine.tun_id, uid: u.uid, until: Date.now() + 365 * 86_400_000 }),
      ban(2, { tun_id: elsewhere.tun_id, uid: u.uid, ip: "203.0.113.51" }),
    ]);
    expect(r.body.data.acked).toBe(2);
    await frpRuntime(t.ctx).writer.flush();
    const list = await t.api<ShieldBanRow[]>("GET", `/user/tun/${mine.tun_id}/shield/bans`, { token: u.token });
    expect(list.body.data.map((x) => x.ip)).toEqual(["203.0.113.50"]);
    expect(Date.parse(list.body.data[0].until)).toBeLessThanOrEqual(Date.now() + 30 * 86_400_000);
    const other = await t.api<ShieldBanRow[]>("GET", `/user/tun/${elsewhere.tun_id}/shield/bans`, { token: u.token });
    expect(other.body.data).toEqual([]);
    // the decision state every process (and every agent's stream) reads carries it
    const entry = await frpRuntime(t.ctx).cache.user(u.uid);
    expect(entry?.tunnels.get(mine.tun_id)?.shield?.bans.map((x) => x.ip)).toEqual(["203.0.113.50"]);
  });

  it("refuses a malformed ban naming the field", async () => {
    const u = await registerWithPlan(t);
    const mine = await createTestTunnel(t, u.token, { node_id: a.node_id });
    const r = await send(a, [ban(1, { tun_id: mine.tun_id, uid: u.uid, ip: "" })]);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 10000, data: { field: "events.0.data.ip" } });
  });
});
