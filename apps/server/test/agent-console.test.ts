/**
 * The node agent (apps/agent) against the real console: its stream, lookup and events routes
 * (modules/agents), on SQLite and PostgreSQL. The agent runs in this process with a recorded
 * port killer; frps is played by plugin calls to the agent's loopback port.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "../../agent/src/agent";
import { agentConfig, until } from "../../agent/test/fake-console";
import { adminSuite } from "./admin-fixtures";
import { createTestNode, createTestTunnel, registerWithPlan } from "./frp-fixtures";
import type { TestApp } from "./harness";
import { listen } from "./sim-env";

let t: TestApp;
let admin: string;
let agent: Agent;
let port: number;
const kills: number[] = [];
const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "burrow-agent-console-"));
let nodeId: number;

adminSuite((ready) => ({ t, admin } = ready));
beforeAll(async () => {
  const node = await createTestNode(t, { agent_mode: 1 });
  nodeId = node.node_id;
  const base = await listen(t);
  agent = new Agent(
    { ...agentConfig(base, stateDir), nodeId: node.node_id, nodeSecret: node.plugin_secret },
    { kill: async (p) => void kills.push(p), log: () => {} },
  );
  port = await agent.start();
});
afterAll(async () => {
  await agent.stop();
  fs.rmSync(stateDir, { recursive: true, force: true });
});

const call = async (op: string, content: unknown) => {
  const res = await fetch(`http://127.0.0.1:${port}/frp/plugin`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ version: "0.1.0", op, content }),
  });
  return (await res.json()) as { reject: boolean; reject_reason?: string };
};

describe("the node agent against the real console", () => {
  it("looks up a new customer, its hold reaches the console's database, and a lock reaches the agent within a second", async () => {
    await until(() => agent.link.connected, 10_000, "stream");
    const u = await registerWithPlan(t);
    const tun = await createTestTunnel(t, u.token, { node_id: nodeId });
    const { frp_token } = await t.ctx.db
      .selectFrom("users")
      .select("frp_token")
      .where("uid", "=", u.uid)
      .executeTakeFirstOrThrow();
    const user = { user: `u_${u.uid}`, metas: { token: frp_token }, run_id: "a1b2c3d4e5f60718" };
    expect(await call("Login", { user: user.user, metas: user.metas, run_id: user.run_id })).toEqual({
      reject: false,
      unchange: true,
    });
    const np = await call("NewProxy", {
      user,
      proxy_name: `u_${u.uid}.t_${tun.tun_id}`,
      proxy_type: "tcp",
      remote_port: tun.remote_port,
    });
    expect(np.reject).toBe(false);
    // the journaled hold is applied by the console: the tunnel is online, held by this session
    await until(
      async () => {
        const row = await t.ctx.db
          .selectFrom("tunnels")
          .select(["status", "run_id"])
          .where("tun_id", "=", tun.tun_id)
          .executeTakeFirstOrThrow();
        return row.status === 1 && row.run_id === user.run_id;
      },
      5000,
      "hold applied",
    );
    await until(() => agent.journal.size === 0, 5000, "journal acknowledged");

    // a customer with nothing on this node is not in the stream: the agent asks the console
    const v = await registerWithPlan(t);
    const vTok = await t.ctx.db
      .selectFrom("users")
      .select("frp_token")
      .where("uid", "=", v.uid)
      .executeTakeFirstOrThrow();
    expect(agent.copy.knows(v.uid, vTok.frp_token)).toBe(false);
    // a wrong token learns nothing of the customer and does not spoil the right one's lookup
    const forged = await call("Login", {
      user: `u_${v.uid}`,
      metas: { token: "f".repeat(32) },
      run_id: "0f1e2d3c4b5a6978",
    });
    expect(forged.reject).toBe(true);
    expect(agent.copy.user(v.uid)).toBeNull();
    const vLogin = await call("Login", {
      user: `u_${v.uid}`,
      metas: { token: vTok.frp_token },
      run_id: "0f1e2d3c4b5a6978",
    });
    expect(vLogin).toEqual({ reject: false, unchange: true });
    // asked again after the console's stream forgets it (nothing on this node), never refused as unknown
    expect(
      await call("Login", { user: `u_${v.uid}`, metas: { token: vTok.frp_token }, run_id: "0f1e2d3c4b5a6978" }),
    ).toEqual({
      reject: false,
      unchange: true,
    });

    const lockedAt = Date.now();
    const r = await t.api("PATCH", "/super/tun", {
      token: admin,
      body: { tun_id: tun.tun_id, status: 3, banned_reason: "钓鱼" },
    });
    expect(r.status).toBe(200);
    await until(() => kills.includes(tun.remote_port as number), 1500, "the lock on the node");
    expect(Date.now() - lockedAt).toBeLessThan(1500);
    const ping = await call("Ping", { user });
    expect(ping.reject_reason).toBe(`隧道 ${tun.tun_name} 已被锁定：钓鱼，连接已断开`);
  });
});
