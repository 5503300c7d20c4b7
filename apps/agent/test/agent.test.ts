import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { UserWire } from "@burrow/frp-decision";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Agent, GRACE_REFUSED, UNREACHABLE } from "../src/agent";
import { type AgentConfig, ConfigError, loadConfig } from "../src/config";
import { GATHER_MS } from "../src/link";
import {
  agentConfig,
  customer,
  type FakeConsole,
  fakeConsole,
  login,
  NODE_ID,
  newProxy,
  plugin,
  RUN,
  until,
  userInfo,
  visitor,
} from "./fake-console";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function config(consoleUrl: string, over: Partial<AgentConfig> = {}): AgentConfig {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "burrow-agent-test-"));
  cleanups.push(() => fs.rmSync(stateDir, { recursive: true, force: true }));
  return agentConfig(consoleUrl, stateDir, over);
}

interface Started {
  agent: Agent;
  port: number;
  kills: number[];
  clock: { now: number };
}

async function start(cfg: AgentConfig, clock = { now: Date.now() }): Promise<Started> {
  const kills: number[] = [];
  const agent = new Agent(cfg, {
    now: () => clock.now,
    kill: async (p) => {
      kills.push(p);
    },
    log: () => {},
  });
  const port = await agent.start();
  cleanups.push(() => agent.stop());
  return { agent, port, kills, clock };
}

async function withConsole(users: UserWire[]): Promise<FakeConsole> {
  const c = await fakeConsole();
  for (const u of users) c.users.set(u.uid, u);
  cleanups.push(() => c.close());
  return c;
}

describe("node agent: a hold's fsync", () => {
  it("NewProxy is answered once its hold is fsynced, and visitors are answered while that fsync runs", async () => {
    const alice = customer(12, 42012);
    const c = await withConsole([alice]);
    const { agent, port } = await start(config(c.url));
    await until(() => agent.link.connected, 5000, "stream");
    expect((await plugin(port, "Login", login(alice))).body.reject).toBe(false);
    const held: (() => void)[] = [];
    const real = fs.fdatasync;
    const spy = vi.spyOn(fs, "fdatasync").mockImplementation(((fd: number, cb: (err: Error | null) => void) => {
      held.push(() => real(fd, cb));
    }) as typeof fs.fdatasync);
    try {
      let answered = false;
      const np = plugin(port, "NewProxy", newProxy(alice)).then((r) => {
        answered = true;
        return r;
      });
      await until(async () => held.length > 0 || null, 5000, "the hold's fsync started");
      // the fsync runs in the pool: the event loop answers a visitor meanwhile, not the proxy
      expect((await plugin(port, "NewUserConn", visitor(alice))).body.reject).toBe(false);
      expect(answered).toBe(false);
      expect(agent.journal.writtenSeq).toBeLessThan(agent.journal.durableSeq);
      // (the fsync held first may be an earlier batch's, the Login's: release until the hold's is done)
      while (!answered) {
        held.shift()?.();
        await new Promise((r) => setTimeout(r, 10));
      }
      expect((await np).body.reject).toBe(false);
      expect(agent.journal.writtenSeq).toBeGreaterThanOrEqual(agent.journal.durableSeq);
    } finally {
      spy.mockRestore();
      for (const f of held) f();
    }
  });
});

describe("node agent: decisions from the streamed copy", () => {
  it("answers Login, NewProxy and visitors from the copy, journals the hold and the visitor, and delivers them once", async () => {
    const alice = customer(11, 42011);
    const c = await withConsole([alice]);
    const { agent, port } = await start(config(c.url));
    await until(() => agent.link.connected, 5000, "stream");

    expect((await plugin(port, "Login", login(alice))).body).toEqual({ reject: false, unchange: true });
    const bad = await plugin(port, "Login", login(alice, "tok-wrong-000000"));
    expect(bad.body.reject_reason).toBe("访问令牌无效，请重新下载配置文件");

    const np = await plugin(port, "NewProxy", newProxy(alice));
    expect(np.body.reject).toBe(false);
    expect((np.body.content as { remote_port: number }).remote_port).toBe(42011);
    // the hold is in the copy at once: another session's proxy is not handed the tunnel
    expect(agent.copy.user(11)?.tunnels.get(110)?.run_id).toBe("0123456789abcdef");

    expect((await plugin(port, "NewUserConn", visitor(alice))).body.reject).toBe(false);
    await until(() => c.applied.some((e) => e.kind === "conn"), 5000, "conn delivered");
    const hold = c.applied.find((e) => e.kind === "hold");
    expect(hold?.data).toEqual({ tun_id: 110, uid: 11, run_id: "0123456789abcdef", stale_closes: 0 });
    const conn = c.applied.find((e) => e.kind === "conn");
    expect(conn?.data).toMatchObject({ tun_id: 110, uid: 11, ip: "198.51.100.4", remote_addr: "198.51.100.4:51000" });
    // exactly once, in seq order
    const seqs = c.applied.map((e) => e.seq);
    expect(new Set(seqs).size).toBe(seqs.length);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
  });

  it("a flood of visitors reaches the console in a few gathered requests, not one per visitor; a hold goes at once", async () => {
    const bob = customer(13, 42013);
    const c = await withConsole([bob]);
    const { agent, port } = await start(config(c.url));
    await until(() => agent.link.connected, 5000, "stream");
    expect((await plugin(port, "Login", login(bob))).body.reject).toBe(false);
    expect((await plugin(port, "NewProxy", newProxy(bob))).body.reject).toBe(false);
    await until(() => c.applied.some((e) => e.kind === "hold"), 1000, "the hold delivered at once");
    const before = c.received.length;
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 200 }, () => plugin(port, "NewUserConn", visitor(bob))));
    expect(answers.every((a) => a.body.reject === false)).toBe(true);
    await until(() => c.applied.filter((e) => e.kind === "conn").length === 200, 5000, "every visitor delivered");
    // One request per gathering window at most, however many visitors came meanwhile. The windows
    // are counted over the time the flood took here (a loaded machine answers 200 visitors slower),
    // plus the one open as the last visitor came; one per visitor would be 200.
    const windows = Math.ceil((Date.now() - started) / GATHER_MS) + 1;
    expect(c.received.length - before).toBeLessThanOrEqual(windows);
  });

  it("a lock streamed from the console refuses the next heartbeat and visitor and closes the port's open connections", async () => {
    const alice = customer(12, 42012);
    const c = await withConsole([alice]);
    const { agent, port, kills } = await start(config(c.url));
    await until(() => agent.link.connected, 5000, "stream");
    await plugin(port, "NewProxy", newProxy(alice));
    expect(kills).toEqual([]);

    const locked = customer(12, 42012);
    locked.tunnels[0] = { ...locked.tunnels[0], status: 3, banned_reason: "违规内容" };
    c.push({ type: "user", uid: 12, user: locked });
    await until(() => kills.includes(42012), 2000, "ss -K on the locked port");

    const ping = await plugin(port, "Ping", {
      user: { user: "u_12", metas: { token: alice.token }, run_id: "0123456789abcdef" },
    });
    expect(ping.body.reject_reason).toBe("隧道 ssh12 已被锁定：违规内容，连接已断开");
    expect((await plugin(port, "NewUserConn", visitor(alice))).body.reject_reason).toBe(
      "隧道 ssh12 已被锁定：违规内容",
    );
  });

  it("a customer the copy has not seen is looked up; a console that does not answer gets a clear refusal within the bound", async () => {
    const bob = customer(13, 42013);
    const c = await withConsole([]);
    const { agent, port } = await start(config(c.url, { lookupTimeoutMs: 300 }));
    await until(() => agent.link.connected, 5000, "stream");

    c.users.set(13, bob);
    expect((await plugin(port, "Login", login(bob))).body.reject).toBe(false);
    expect(c.lookups).toEqual([13]);
    // known now: no second lookup
    expect((await plugin(port, "NewProxy", newProxy(bob))).body.reject).toBe(false);
    expect(c.lookups).toEqual([13]);

    const carol = customer(14, 42014);
    c.users.set(14, carol);
    c.lookupHangs = true;
    const t0 = Date.now();
    const r = await plugin(port, "Login", login(carol));
    expect(r.body.reject_reason).toBe(UNREACHABLE);
    expect(Date.now() - t0).toBeLessThan(2000);
    // a customer the console says does not exist is refused as such
    c.lookupHangs = false;
    expect((await plugin(port, "Login", login(customer(15, 1)))).body.reject_reason).toBe("用户不存在");
    // a wrong token is refused and remembered as such, without spoiling the right token's lookup
    expect((await plugin(port, "Login", login(carol, "tok-forged-0123456789"))).body.reject).toBe(true);
    expect((await plugin(port, "Login", login(carol))).body.reject).toBe(false);
  });

  it("console down: decides from the saved copy after a restart; past the grace the refuse policy refuses new visitors and says so", async () => {
    const alice = customer(16, 42016);
    const c = await withConsole([alice]);
    const cfg = config(c.url, { graceMs: 10 * 60_000 });
    const clock = { now: Date.now() };
    const first = await start(cfg, clock);
    await until(() => first.agent.link.connected, 5000, "stream");
    await first.agent.stop();
    cleanups.pop();
    await c.close();
    cleanups.pop();

    // The console is gone; a new agent process loads state.json.
    const second = await start(cfg, clock);
    expect((await plugin(second.port, "Login", login(alice))).body.reject).toBe(false);
    expect(second.agent.grace.state).toBe("grace");
    clock.now += 10 * 60_000 + 1;
    const refused = await plugin(second.port, "NewUserConn", visitor(alice));
    expect(refused.body.reject_reason).toBe(GRACE_REFUSED);
    expect(second.agent.grace.state).toBe("expired");
    // heartbeats of sessions already up still pass (the policy refuses new sessions, proxies, visitors)
    const ping = await plugin(second.port, "Ping", {
      user: { user: "u_16", metas: { token: alice.token }, run_id: "r1" },
    });
    expect(ping.body.reject).toBe(false);
    // the grace's changes are journaled for the console
    expect(
      (await second.agent.journal.batch(100, 1 << 20))
        .filter((e) => e.kind === "grace")
        .map((e) => (e.data as { state: string }).state)
        .slice(-2),
    ).toEqual(["entered", "expired"]);
  });

  it("keep policy: past the grace the copy still decides", async () => {
    const alice = customer(17, 42017);
    const c = await withConsole([alice]);
    const cfg = config(c.url, { graceMs: 60_000, gracePolicy: "keep" });
    const clock = { now: Date.now() };
    const a = await start(cfg, clock);
    await until(() => a.agent.link.connected, 5000, "stream");
    c.drop();
    await c.close();
    cleanups.splice(cleanups.length - 2, 1);
    await until(() => a.agent.grace.state === "grace", 5000, "link down");
    clock.now += 61_000;
    expect((await plugin(a.port, "NewUserConn", visitor(alice))).body.reject).toBe(false);
    expect(a.agent.grace.state).toBe("expired");
  });
});

describe("node agent: a moved tunnel's old hold", () => {
  it("refuses the session that served the tunnel here, from the streamed copy after a restart too, until the console drops it", async () => {
    const base = customer(18, 42018);
    const elsewhere = { ...base.tunnels[0], node_id: NODE_ID + 1 };
    const moved = customer(18, 42018, { tunnels: [{ ...elsewhere, moved_node_id: NODE_ID, moved_run_id: RUN }] });
    const c = await withConsole([moved]);
    const cfg = config(c.url);
    const first = await start(cfg);
    await until(() => first.agent.link.connected, 5000, "stream");
    const ping = (a: Started, run = RUN) => plugin(a.port, "Ping", { user: userInfo(moved, run) });
    expect((await ping(first)).body.reject_reason).toBe("隧道 ssh18 已迁移到其他节点，请下载新的配置文件，连接已断开");
    expect((await ping(first, "feedfacefeedface")).body.reject).toBe(false);
    await first.agent.stop();
    cleanups.pop();
    // A new agent process never saw the NewProxy: the hold is the console's, streamed.
    const second = await start(cfg);
    await until(() => second.agent.link.connected, 5000, "stream");
    expect((await plugin(second.port, "NewWorkConn", { user: userInfo(moved) })).body.reject).toBe(true);
    // The old node's dashboard no longer shows the proxy: the console streams the customer without it.
    c.push({ type: "user", uid: 18, user: customer(18, 42018, { tunnels: [elsewhere] }) });
    await until(async () => !(await ping(second)).body.reject, 2000, "the hold dropped");
  });
});

describe("node agent: configuration", () => {
  const base = { CONSOLE_URL: "https://console.example.com", NODE_ID: "3", NODE_SECRET: "s3cret" };
  it("names the variable that is wrong", () => {
    expect(() => loadConfig({})).toThrow(new ConfigError("CONSOLE_URL is required"));
    expect(() => loadConfig({ ...base, NODE_ID: "0" })).toThrow(/NODE_ID must be the node's id/);
    expect(() => loadConfig({ ...base, AGENT_PLUGIN_PORT: "70000" })).toThrow(
      /AGENT_PLUGIN_PORT must be a whole number from 1 to 65535/,
    );
    expect(() => loadConfig({ ...base, AGENT_GRACE_POLICY: "maybe" })).toThrow(
      /AGENT_GRACE_POLICY must be "keep" or "refuse"/,
    );
    expect(() =>
      loadConfig({
        ...base,
        FRPS_DASHBOARD_URL: "http://10.0.0.5:7500",
        FRPS_DASHBOARD_USER: "a",
        FRPS_DASHBOARD_PASSWORD: "b",
      }),
    ).toThrow(/FRPS_DASHBOARD_URL must be on 127.0.0.1/);
    expect(() => loadConfig({ ...base, FRPS_DASHBOARD_URL: "http://127.0.0.1:7500" })).toThrow(
      /FRPS_DASHBOARD_USER is required/,
    );
    const ok = loadConfig({ ...base, AGENT_GRACE_MINUTES: "5" });
    expect(ok).toMatchObject({ nodeId: 3, graceMs: 300_000, gracePolicy: "refuse", pluginPort: 7300 });
  });
});
