import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { AdminNodeDetail, NodeSetup, Paged, TunnelConfig, TunnelView } from "@burrow/contract";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  freePort,
  killAll,
  ok,
  registerCustomer,
  type ServerProcess,
  signIn,
  startServer,
  tempDir,
} from "../child-server";
import { ADMIN_PASSWORD, ADMIN_PHONE } from "../harness";
import { parseInstaller, type Supervised, supervise, verifyUnit } from "./agent-env";
import {
  dashboard,
  type FrpProcess,
  freePortRange,
  frpBinaries,
  heldConnection,
  killFrp,
  localServices,
  runFrp,
  sleep,
  tcpEcho,
  tcpProbe,
  waitUntil,
} from "./frp-env";
import { createLoopbackNode } from "./real-node";
import type { DashProxy } from "./suite";

const AGENT_DIR = path.resolve(import.meta.dirname, "../../../agent");
/** Burrow's frpc configs send a heartbeat every 30 s (frpc-config.ts). */
const HEARTBEAT_S = 30;
/**
 * How long the console stays stopped: the five minutes, real time, in this background
 * suite (10 heartbeats of every session, 300 visitors). AGENT_OUTAGE_S shortens it by hand only.
 */
const OUTAGE_MS = Number(process.env.AGENT_OUTAGE_S ?? 300) * 1000;
/** The agent's dashboard reads in this suite (AGENT_DASHBOARD_SECONDS; 30 on a node). */
const DASHBOARD_S = 2;
/** docs/agent.md: a lock reaches the agent within a second; ss -K then closes the port's connections. */
const LOCK_TO_AGENT_MS = 1_000;
const LOCK_TO_CLOSED_MS = 2_000;
/**
 * A lock made while the console was down applies when the agent's next reconnect attempt gets a
 * snapshot: after a long outage the agent retries every 2.5–5 s (link.ts: 1 s doubling to 5 s,
 * jittered), so within 5 s of the console's return, plus a few for the snapshot and enforcement
 * on a loaded machine.
 */
const RETURN_TO_LOCK_MS = 12_000;

interface Health {
  ready: boolean;
  link: "up" | "down";
  journal: { stream: string; pending: number; written: number; acked: number };
}

/** Builds the agent's bundle as `npm run build -w @burrow/agent` does (the console serves it). */
function buildAgent(): void {
  const r = spawnSync(process.execPath, ["build.mjs"], { cwd: AGENT_DIR, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`building the agent failed:\n${r.stdout}${r.stderr}`);
}

/**
 * Agent mode with real frp (`smoke`: the set-up and the first case only): the console started as a user starts it, a node in agent mode, the
 * agent installed from the node's set-up page (its bundle downloaded from the console, its env
 * file and systemd unit out of the one-line installer) under a supervisor with the unit's restart
 * semantics, frps from the set-up page's frps.toml calling it, and real frpc sessions through it.
 */
export function agentSuite(version: string, opts: { smoke?: boolean } = {}) {
  const bins = frpBinaries(version);

  describe(`real frp ${version} through the node agent`, () => {
    let s: ServerProcess;
    let consolePort: number;
    let dir: string;
    let admin: string;
    let node: AdminNodeDetail;
    let base: number;
    let pluginPort: number;
    let agent: Supervised;
    let frps: FrpProcess;
    let local: Awaited<ReturnType<typeof localServices>>;
    let unit = "";
    const dashPassword = `dash-${randomBytes(6).toString("hex")}`;
    /** the main customer: one tcp tunnel, one frpc session that must never drop */
    let main: Customer;

    interface Customer {
      uid: number;
      token: string;
      tunnel: TunnelView;
      frpc: FrpProcess;
    }

    const serverEnv = () => ({
      PUBLIC_URL: `http://127.0.0.1:${consolePort}`,
      FRP_POLLER: "true",
      FRP_POLL_INTERVAL: "2",
    });
    const bootConsole = async () => {
      // 90 s: the console boots three times here, on a machine the other suites keep busy
      s = await startServer({ dataDir: path.join(dir, "data"), port: consolePort, env: serverEnv(), readyMs: 90_000 });
    };
    const stopConsole = async () => {
      s.child.kill("SIGTERM");
      await s.exited;
    };
    const api = async <T>(method: string, p: string, o: { token?: string; body?: unknown } = {}) =>
      ok(await s.api<T>(method, p, o), `${method} ${p}`);
    const dash = <T>(p: string) => dashboard<T>(node.api_addr, "admin", dashPassword, p);
    const dashProxy = async (c: Customer) =>
      (await dash<{ proxies: DashProxy[] }>("/api/proxy/tcp")).proxies.find((p) => p.name === c.tunnel.proxy_name);
    const health = async () => (await fetch(`http://127.0.0.1:${pluginPort}/healthz`)).json() as Promise<Health>;
    const tunnelOf = async (c: Customer) =>
      (await api<Paged<TunnelView>>("GET", "/user/tun?page=1&page_size=50", { token: c.token })).list.find(
        (t) => t.tun_id === c.tunnel.tun_id,
      ) as TunnelView;
    /** the agent's "closing open connections" lines for a port (its ss -K), with their times */
    const kills = (port: number) =>
      agent
        .lines()
        .filter((l) => l.msg === "closing open connections" && l.port === port)
        .map((l) => Date.parse(l.time));
    const logins = (f: FrpProcess) => f.log().match(/login to server success/g)?.length ?? 0;

    /** a new customer with one tcp tunnel on the node's `port`, and frpc running the config the console hands out */
    const customerWithFrpc = async (
      port: number,
      edit = (toml: string) => toml,
      start = true,
      localPort = local.tcpPort,
    ) => {
      const c = await registerCustomer(s);
      const tunnel = await api<TunnelView>("POST", "/user/tun", {
        token: c.token,
        body: {
          node_id: node.node_id,
          tun_name: `t${port}`,
          protocol: "tcp",
          local_port: localPort,
          remote_port: port,
        },
      });
      const cfg = await api<TunnelConfig>("GET", `/user/tun/config?node_id=${node.node_id}`, { token: c.token });
      const file = path.join(dir, `frpc-${port}.toml`);
      fs.writeFileSync(file, edit(cfg.toml));
      const cust: Customer & { file: string } = {
        ...c,
        tunnel,
        file,
        frpc: start ? runFrp(bins.frpc, file) : (null as never),
      };
      if (start) await cust.frpc.waitForLog(/start proxy success/, 30_000);
      return cust;
    };

    beforeAll(async () => {
      dir = tempDir(`agent-${version}`);
      consolePort = await freePort();
      pluginPort = await freePort();
      buildAgent();
      await bootConsole();
      admin = await signIn(s, ADMIN_PHONE, ADMIN_PASSWORD);
      // bindPort, vhost http, vhost https, dashboard, then remote ports
      base = await freePortRange(10);
      node = await createLoopbackNode(s, admin, {
        name: `agent-${version}`,
        base,
        remotePorts: 6,
        dashPassword,
        agentMode: 1,
      });
      const setup = await api<NodeSetup>("GET", `/super/node/setup?node_id=${node.node_id}`, { token: admin });
      if (!setup.agent_install) throw new Error(`no agent installer: ${setup.agent_missing}`);
      const install = parseInstaller(setup.agent_install);
      unit = install.unit;
      // the installer's curl: the bundle the console serves
      const bundle = path.join(dir, "burrow-agent.mjs");
      // Other suites rebuild the same dist file at the same time: a download caught mid-write does
      // not parse, and is fetched again.
      await waitUntil("a whole bundle from the console", async () => {
        const res = await fetch(install.bundleUrl);
        expect(res.status, `GET ${install.bundleUrl}`).toBe(200);
        fs.writeFileSync(bundle, Buffer.from(await res.arrayBuffer()));
        return spawnSync(process.execPath, ["--check", bundle]).status === 0;
      });
      // The one departure from the node: this machine runs several suites at once, so the agent's
      // plugin port (7300 on a node) is a free one, in its env file and in frps.toml alike.
      const env = {
        ...install.env,
        AGENT_PLUGIN_PORT: String(pluginPort),
        AGENT_STATE_DIR: path.join(dir, "state"), // systemd's StateDirectory= on a node
        AGENT_DASHBOARD_SECONDS: String(DASHBOARD_S),
      };
      expect(install.env.AGENT_PLUGIN_PORT).toBe("7300");
      expect(setup.frps_toml).toContain('addr = "127.0.0.1:7300"');
      fs.mkdirSync(env.AGENT_STATE_DIR, { recursive: true });
      agent = supervise(unit, env, { "/usr/local/lib/burrow-agent/burrow-agent.mjs": bundle });
      await waitUntil("the agent's first snapshot", async () => (await health()).ready, 20_000).catch((err) => {
        throw new Error(`${err.message}\nagent:\n${agent.log()}`);
      });
      const frpsToml = path.join(dir, "frps.toml");
      fs.writeFileSync(frpsToml, setup.frps_toml.replace('"127.0.0.1:7300"', `"127.0.0.1:${pluginPort}"`));
      frps = runFrp(bins.frps, frpsToml);
      await frps.waitForLog(/frps started successfully/);
      local = await localServices(`agent-${version}`);
      main = await customerWithFrpc(base + 4);
    });

    afterAll(async () => {
      // what the agent, frps and the main frpc said, kept for a failure's post-mortem
      const logs = { agent: agent?.log(), frps: frps?.log(), "frpc-main": main?.frpc.log() };
      for (const [name, text] of Object.entries(logs)) if (text) fs.writeFileSync(path.join(dir, `${name}.log`), text);
      console.log(`[${version}] agent started ${agent?.starts()} time(s); logs in ${dir}`);
      await agent?.stop();
      await killFrp();
      await killAll();
      local?.close();
    });

    it("the installer's unit passes systemd-analyze verify; frpc logs in through the agent and carries traffic", async () => {
      const v = verifyUnit(unit, dir);
      if (v) expect(v.status, v.output).toBe(0);
      else console.log(`[${version}] systemd-analyze is not installed: the unit was not verified`);
      const data = randomBytes(4096);
      expect((await tcpEcho(main.tunnel.remote_port as number, data)).back.equals(data)).toBe(true);
      expect((await dashProxy(main))?.status).toBe("online");
      await waitUntil("the console shows the tunnel connected", async () => (await tunnelOf(main)).status === 1);
    });

    // the other frp versions: login and traffic through the agent only (the cases are on one version)
    if (opts.smoke) return;

    it("a lock reaches the agent within a second, ss -K closes a held connection of a client without heartbeats, and a session with heartbeats is refused at its next one", async () => {
      // D turned heartbeats off in its copy of the file; E keeps them (every 30 s)
      const d = await customerWithFrpc(base + 5, (t) =>
        t.replace(`transport.heartbeatInterval = ${HEARTBEAT_S}`, "transport.heartbeatInterval = -1"),
      );
      const e = await customerWithFrpc(base + 6);
      const held = heldConnection(base + 5, 200);
      await waitUntil("the held connection echoing", async () => held.echoes() > 0, 5_000);
      const reason = `agent lock ${randomBytes(2).toString("hex")}`;
      const t0 = Date.now();
      await Promise.all(
        [d, e].map((c) =>
          api("PATCH", "/super/tun", {
            token: admin,
            body: { tun_id: c.tunnel.tun_id, status: 3, banned_reason: reason },
          }),
        ),
      );
      await waitUntil("the held connection closed", async () => held.closed(), 5_000);
      const closedMs = Date.now() - t0;
      // E holds no connection: its ss -K is seen in the agent's log only
      await waitUntil(
        "the agent's ss -K of both ports",
        async () => kills(base + 5).length && kills(base + 6).length,
        5_000,
      );
      const [dKill] = kills(base + 5);
      const [eKill] = kills(base + 6);
      expect(dKill, `the agent's log:\n${agent.log()}`).toBeDefined();
      console.log(
        `[${version}] lock → agent's ss -K ${dKill - t0} ms (D) / ${eKill - t0} ms (E); held connection closed ${closedMs} ms after the lock`,
      );
      expect(dKill - t0).toBeLessThan(LOCK_TO_AGENT_MS);
      expect(eKill - t0).toBeLessThan(LOCK_TO_AGENT_MS);
      expect(closedMs).toBeLessThan(LOCK_TO_CLOSED_MS);
      // new visitors are refused by the agent's NewUserConn answer
      for (const port of [base + 5, base + 6]) expect(await tcpProbe(port, 2_000)).toBe("closed");
      // E's session: its next heartbeat is refused with the reason
      await e.frpc.waitForLog(new RegExp(reason), (HEARTBEAT_S + 5) * 1000);
      console.log(`[${version}] the session with heartbeats refused ${Date.now() - t0} ms after the lock`);
      expect(Date.now() - t0).toBeLessThan((HEARTBEAT_S + 5) * 1000);
      await Promise.all([d.frpc.stop(), e.frpc.stop()]);
      // the main session was never touched
      expect(logins(main.frpc)).toBe(1);
    }, 90_000);

    it(
      `the console restarted mid-traffic, then stopped ${OUTAGE_MS / 60_000} min: no session dropped, no visitor refused, no byte billed twice or lost; a lock made meanwhile applies within seconds of its return`,
      async () => {
        const port = main.tunnel.remote_port as number;
        // L's service is the sink: it never closes an idle connection (the echo does, after 1 s, which a
        // stalled process on a loaded machine can reach), so only the lock can end L's held connection
        const l = await customerWithFrpc(base + 7, undefined, true, local.sinkPort);
        // a visitor every second, throughout
        const failures: string[] = [];
        let visits = 0;
        let visiting = true;
        const visitors = (async () => {
          while (visiting) {
            const t = Date.now();
            try {
              const data = randomBytes(512);
              const { back } = await tcpEcho(port, data, 5_000);
              if (!back.equals(data)) throw new Error("echo differs");
              visits++;
            } catch (err) {
              failures.push(`${new Date().toISOString()} ${(err as Error).message}`);
            }
            await sleep(Math.max(0, 1000 - (Date.now() - t)));
          }
        })();
        const offline: string[] = [];
        const watchOnline = async (ms: number) => {
          const until = Date.now() + ms;
          while (Date.now() < until) {
            const p = await dashProxy(main);
            if (p?.status !== "online") offline.push(`${new Date().toISOString()} ${p?.status ?? "missing"}`);
            await sleep(Math.min(5_000, Math.max(0, until - Date.now())));
          }
        };
        await sleep(3_000);

        // 1. a restart, as for an upgrade
        await stopConsole();
        await bootConsole();
        await waitUntil("the agent back on the console", async () => (await health()).link === "up", 30_000);
        await watchOnline(3_000);

        // 2. stopped for the outage; a lock of L's tunnel is written to the database meanwhile
        const lHeld = heldConnection(base + 7, 200);
        await stopConsole();
        await waitUntil("the agent sees the console gone", async () => (await health()).link === "down", 10_000);
        await watchOnline(OUTAGE_MS / 2);
        const reason = `locked while down ${randomBytes(2).toString("hex")}`;
        const db = new Database(path.join(dir, "data", "burrow.sqlite"));
        try {
          db.pragma("busy_timeout = 5000");
          const changed = db
            .prepare("update tunnels set status = 3, banned_reason = ?, updated_at = ? where tun_id = ?")
            .run(reason, new Date().toISOString(), l.tunnel.tun_id).changes;
          expect(changed).toBe(1);
        } finally {
          db.close();
        }
        await watchOnline(OUTAGE_MS / 2);
        expect(lHeld.closed(), "L's connection stays up while nobody told the agent").toBe(false);
        expect((await health()).journal.pending, "visitors and counters queued on the node").toBeGreaterThan(0);

        // 3. back: the lock applies within seconds
        const booting = Date.now();
        await bootConsole();
        // "its return": the console answering again (its boot on this loaded machine is not the agent's)
        const back = Date.now();
        await waitUntil("the lock's ss -K on L's port", async () => kills(base + 7).length > 0, RETURN_TO_LOCK_MS);
        await waitUntil("L's held connection closed", async () => lHeld.closed(), 5_000);
        expect(await tcpProbe(base + 7, 2_000)).toBe("closed");
        const lockMs = Date.now() - back;
        console.log(
          `[${version}] the console booted in ${back - booting} ms; the lock made while it was down applied ${lockMs} ms after it answered again`,
        );
        expect(lockMs).toBeLessThan(RETURN_TO_LOCK_MS);
        await l.frpc.waitForLog(new RegExp(reason), (HEARTBEAT_S + 5) * 1000);
        await l.frpc.stop();

        visiting = false;
        await visitors;
        console.log(`[${version}] ${visits} visitors through the restart and the outage, ${failures.length} refused`);
        expect(failures).toEqual([]);
        expect(visits).toBeGreaterThan(OUTAGE_MS / 1000 / 2);
        expect(offline, "the dashboard showed the proxy online throughout").toEqual([]);
        expect(logins(main.frpc), `frpc logged in again:\n${main.frpc.log()}`).toBe(1);
        expect(main.frpc.log()).not.toMatch(/try to reconnect|connect to server error/);

        // every byte billed once: the console's total for the tunnel equals frps's counters once
        // the connections closed and the queued counter reads are delivered
        await waitUntil("no open connection", async () => (await dashProxy(main))?.curConns === 0, 10_000);
        let last = "";
        await waitUntil(
          "the billed traffic equal to the dashboard's",
          async () => {
            const [p, t, h] = [await dashProxy(main), await tunnelOf(main), await health()];
            last = `dashboard ${p?.todayTrafficIn}+${p?.todayTrafficOut}, billed ${t.traffic_in}+${t.traffic_out}, journal ${h.journal.pending}`;
            return (
              h.journal.pending === 0 &&
              p !== undefined &&
              p.todayTrafficIn + p.todayTrafficOut > 0 &&
              t.traffic_in + t.traffic_out === p.todayTrafficIn + p.todayTrafficOut
            );
          },
          (DASHBOARD_S + 15) * 1000,
        ).catch((err) => {
          throw new Error(`${err.message}\n${last}`);
        });
        // and it stays equal over further reads (nothing billed twice on a later resend)
        await sleep(DASHBOARD_S * 2 * 1000 + 500);
        const [p, t] = [await dashProxy(main), await tunnelOf(main)];
        console.log(`[${version}] ${last}`);
        expect(t.traffic_in + t.traffic_out).toBe((p?.todayTrafficIn ?? 0) + (p?.todayTrafficOut ?? 0));
      },
      OUTAGE_MS + 180_000,
    );

    it("the agent killed: frps fails closed, the supervisor brings it back and it resumes from its saved copy and journal, the console down too", async () => {
      const port = main.tunnel.remote_port as number;
      if (s.child.exitCode !== null || s.child.signalCode !== null) await bootConsole(); // after a failure above
      const k = await customerWithFrpc(base + 8, undefined, false);
      const before = await health();
      expect(before.ready).toBe(true);
      // K's tunnel reaches the agent's copy through the stream and its saved state.json a moment
      // after the console answered the creation: only then is K a customer the copy holds
      const stateFile = path.join(dir, "state", "state.json");
      await waitUntil(
        "K in the agent's saved copy",
        async () => {
          const saved = JSON.parse(fs.readFileSync(stateFile, "utf8")) as { users: { uid: number }[] };
          return saved.users.some((u) => u.uid === k.uid);
        },
        10_000,
      );
      // the console down as well: what the restarted agent decides comes from its saved copy
      await stopConsole();
      const starts = agent.starts();
      agent.signal("SIGKILL");
      await sleep(100);
      // frps fails closed while nothing answers on the plugin port: the visitor is refused, the
      // new login too (the supervisor's RestartSec is 1 s)
      expect(await tcpProbe(port, 2_000)).toBe("closed");
      const kFrpc = runFrp(bins.frpc, k.file);
      const refused = await kFrpc.waitForLog(/connect to server error: [^\n]*/, 5_000);
      expect(refused).toContain("plugin error");
      console.log(
        `[${version}] with the agent killed, frps answered a visitor by closing it and frpc's login: ${refused}`,
      );
      await waitUntil("the agent restarted", async () => agent.starts() > starts, 5_000);
      const after = await waitUntil("the restarted agent answering", () => health(), 10_000);
      expect(after.ready, "answering from state.json").toBe(true);
      expect(after.link).toBe("down");
      expect(after.journal.stream, "the same journal").toBe(before.journal.stream);
      expect(after.journal.written).toBeGreaterThanOrEqual(before.journal.written);
      expect(agent.log()).toContain("loaded the decision copy from state.json");
      // serving again from the copy: visitors, and K's retried login (a customer the copy holds)
      const data = randomBytes(256);
      expect((await tcpEcho(port, data, 10_000)).back.equals(data)).toBe(true);
      await kFrpc.waitForLog(/start proxy success/, 30_000);
      // the console back: the journal, across the crash, is delivered and acknowledged
      await bootConsole();
      await waitUntil(
        "the journal delivered",
        async () => {
          const h = await health();
          return h.link === "up" && h.journal.pending === 0 && h.journal.acked >= after.journal.written;
        },
        30_000,
      );
      await waitUntil("K's tunnel connected in the console", async () => (await tunnelOf(k)).status === 1, 10_000);
      await kFrpc.stop();
    }, 120_000);
  });
}
