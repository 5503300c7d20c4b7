import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type {
  AdminNodeDetail,
  DomainVerifyResult,
  DomainView,
  NodePollResult,
  NodeSetup,
  Paged,
  ReachReport,
  TunnelConfig,
  TunnelEventRow,
  TunnelView,
} from "@burrow/contract";
import { bandwidthQuantity } from "@burrow/frp-decision";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIN_FRPS_VERSION, unsupportedFrps } from "../../src/modules/frp/frps-version";
import { FRPS_HEARTBEAT_TIMEOUT } from "../../src/modules/nodes/frps-config";
import { makeChain } from "../certs";
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
import { startDnsServer, type TestDnsServer } from "../dns-server";
import { ADMIN_PASSWORD, ADMIN_PHONE } from "../harness";
import {
  dashboard,
  ECHO_IDLE_MS,
  type FrpProcess,
  freePortRange,
  frpBinaries,
  heldConnection,
  httpsGet,
  killFrp,
  localServices,
  runFrp,
  sleep,
  tcpEcho,
  tcpProbe,
  tcpUpload,
  udpEcho,
  verify,
  vhostGet,
  waitUntil,
} from "./frp-env";
import { launchCase } from "./launch";
import { namedServices, tcpGreeting } from "./port-range";
import { proxyProtocolService, visit } from "./proxy-protocol";
import { createLoopbackNode } from "./real-node";
import { secretTunnelsCase, xtcpFallbackCase } from "./secret-tunnels";
import { wildcardCase } from "./wildcard";

/** The free plan every new customer gets (seed.ts): 4 Mbps. */
const PLAN_MBPS = 4;
/** The poller's interval in this suite (FRP_POLL_INTERVAL). */
const FRP_POLL_INTERVAL_S = 2;
/** Burrow's frpc configs send a heartbeat every 30 s (frpc-config.ts); a lock cuts the session at the next one. */
const HEARTBEAT_S = 30;

export interface DashProxy {
  name: string;
  status: string;
  todayTrafficIn: number;
  todayTrafficOut: number;
  curConns: number;
  conf: { remotePort?: number; transport?: { bandwidthLimit?: string; bandwidthLimitMode?: string } } | null;
}

/**
 * The real-frp suite for one frp version: Burrow started as a user starts it, the frps.toml of the
 * node's set-up page and the customer's frpc.toml used byte for byte, real frps and frpc between
 * them, and the customer's local services behind them.
 */
export function realFrpSuite(version: string) {
  const bins = frpBinaries(version);
  const tooOld = unsupportedFrps(version.slice(1)) !== null;

  describe(`real frp ${version}`, () => {
    let s: ServerProcess;
    let dns: TestDnsServer;
    let admin: string;
    let customer: { uid: number; token: string };
    let node: AdminNodeDetail;
    let base: number;
    let dir: string;
    let frps: FrpProcess;
    let frpc: FrpProcess;
    let local: Awaited<ReturnType<typeof localServices>>;
    const tunnels: Record<"tcp" | "udp" | "http", TunnelView> = {} as never;
    const subdomain = `w${randomBytes(3).toString("hex")}`;
    const dashPassword = `dash-${randomBytes(6).toString("hex")}`;
    const files = { frps: "", frpc: "" };

    const api = async <T>(method: string, p: string, o: { token?: string; body?: unknown } = {}) =>
      ok(await s.api<T>(method, p, o), `${method} ${p}`);
    const dash = <T>(p: string) => dashboard<T>(node.api_addr, "admin", dashPassword, p);
    const proxyName = (t: TunnelView) => `u_${customer.uid}.t_${t.tun_id}`;
    const dashProxy = async (type: string, t: TunnelView) =>
      (await dash<{ proxies: DashProxy[] }>(`/api/proxy/${type}`)).proxies.find((p) => p.name === proxyName(t));
    const myTunnels = async () =>
      (await api<Paged<TunnelView>>("GET", "/user/tun?page=1&page_size=50", { token: customer.token })).list;
    const tunnel = async (id: number) => (await myTunnels()).find((t) => t.tun_id === id) as TunnelView;
    /** the operator's 立即检测; 40008 while the background poller is polling the node: again */
    const poll = () =>
      waitUntil("an operator's poll", async () => {
        const r = await s.api<NodePollResult>("POST", "/super/node/poll", {
          token: admin,
          body: { node_id: node.node_id },
        });
        if (r.body.code === 40008) return null;
        return ok(r, "POST /super/node/poll");
      });

    /** a new customer who bought, with balance the operator gave, a plan of their own on the node's level */
    const customerOnPlan = async (limits: {
      traffic: number;
      bandwidth: number;
      tunnel_limit: number;
      tunnel_peer_port_limit?: number;
    }) => {
      const levels = await api<{ list: { id: number; level: number }[] }>("GET", "/super/plan/level", {
        token: admin,
      });
      const plan = await api<{ id: number }>("POST", "/super/plan", {
        token: admin,
        body: {
          name: `plan-${randomBytes(3).toString("hex")}`,
          level_id: [...levels.list].sort((x, y) => x.level - y.level)[0].id,
          type: 2,
          tunnel_peer_port_limit: 1,
          monthly_fee: 100,
          on_sale: true,
          ...limits,
        },
      });
      const c = await registerCustomer(s);
      await api("PATCH", "/super/user/info", {
        token: admin,
        body: { uid: c.uid, balance_change: 100, balance_reason: "real-frp" },
      });
      await api("POST", "/user/order", {
        token: c.token,
        body: { type: 2, plan_id: plan.id, period: "monthly", pay_method: 1 },
      });
      return { plan, customer: c };
    };

    beforeAll(async () => {
      dir = tempDir(`frp-${version}`);
      const port = await freePort();
      dns = await startDnsServer();
      s = await startServer({
        dataDir: path.join(dir, "data"),
        port,
        env: {
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          FRP_POLLER: "true",
          FRP_POLL_INTERVAL: String(FRP_POLL_INTERVAL_S),
          DNS_SERVERS: dns.dnsServer,
        },
      });
      admin = await signIn(s, ADMIN_PHONE, ADMIN_PASSWORD);
      // bindPort, vhost http, vhost https, dashboard, then sixteen remote ports (+15..+17: 端口范围, +18/+19: 一键启动)
      base = await freePortRange(20);
      node = await createLoopbackNode(s, admin, { name: `real-${version}`, base, remotePorts: 16, dashPassword });
      const setup = await api<NodeSetup>("GET", `/super/node/setup?node_id=${node.node_id}`, { token: admin });
      files.frps = path.join(dir, "frps.toml");
      fs.writeFileSync(files.frps, setup.frps_toml);

      customer = await registerCustomer(s);
      local = await localServices(version);
      const create = (body: Record<string, unknown>) =>
        api<TunnelView>("POST", "/user/tun", { token: customer.token, body: { node_id: node.node_id, ...body } });
      tunnels.tcp = await create({
        tun_name: "echo",
        protocol: "tcp",
        local_port: local.tcpPort,
        remote_port: base + 4,
      });
      tunnels.udp = await create({
        tun_name: "dns",
        protocol: "udp",
        local_port: local.udpPort,
        remote_port: base + 5,
      });
      tunnels.http = await create({ tun_name: "web", protocol: "http", local_port: local.httpPort, subdomain });
      const cfg = await api<TunnelConfig>("GET", `/user/tun/config?node_id=${node.node_id}`, { token: customer.token });
      files.frpc = path.join(dir, "frpc.toml");
      fs.writeFileSync(files.frpc, cfg.toml);

      frps = runFrp(bins.frps, files.frps);
      await frps.waitForLog(/frps started successfully/);
      frpc = runFrp(bins.frpc, files.frpc);
    });

    afterAll(async () => {
      await killFrp();
      await killAll();
      await dns?.stop();
      local?.close();
    });

    it("frps verify and frpc verify accept the files the console hands out", () => {
      for (const [bin, file] of [
        [bins.frps, files.frps],
        [bins.frpc, files.frpc],
      ]) {
        const r = verify(bin, file);
        expect(r.output).toMatch(/syntax is ok/);
        expect(r.status).toBe(0);
      }
    });

    it("the console shows every tunnel connected once frpc logs in", async () => {
      await waitUntil("the tunnels connected", async () => (await myTunnels()).every((t) => t.status === 1), 15_000);
      await frpc.waitForLog(/start proxy success/);
    });

    it(`polls the node: ${tooOld ? `exception, frps below ${MIN_FRPS_VERSION}` : "online"}`, async () => {
      const r = await poll();
      if (tooOld) {
        expect(r.status).toBe(3);
        expect(r.error).toContain(`低于支持的最低版本 ${MIN_FRPS_VERSION}`);
      } else expect(r).toMatchObject({ status: 1, error: null });
      expect(r.proxies).toBe(3);
      const detail = await api<AdminNodeDetail>("GET", `/super/node/detail?node_id=${node.node_id}`, { token: admin });
      expect(detail.runtime?.version).toBe(version.slice(1));
    });

    it("tcp carries a large echo intact, at the plan's bandwidth, which the real dashboard shows", async () => {
      const data = randomBytes(1024 * 1024);
      const { back, elapsedMs } = await tcpEcho(tunnels.tcp.remote_port as number, data, 60_000);
      expect(back.equals(data)).toBe(true);
      // frps limits each proxy's work connection to bandwidth_limit bytes a second, with a burst of
      // one second's worth: unlimited, 1 MB each way takes a few ms on loopback.
      const limit = (PLAN_MBPS * 125_000) / 1024;
      const p = await dashProxy("tcp", tunnels.tcp);
      expect(p?.conf?.remotePort).toBe(tunnels.tcp.remote_port);
      expect(p?.conf?.transport?.bandwidthLimitMode).toBe("server");
      expect(p?.conf?.transport?.bandwidthLimit, "the dashboard's quantity").toBeTruthy();
      console.log(
        `[${version}] 1 MB echo under ${bandwidthQuantity(PLAN_MBPS)} (${limit} KB/s): ${elapsedMs} ms; dashboard says ${p?.conf?.transport?.bandwidthLimit}`,
      );
      // Both directions share one limiter with a burst of a second's worth: (2 MB − burst) / rate.
      const bytesPerS = PLAN_MBPS * 125_000;
      expect(elapsedMs).toBeGreaterThan(((2 * data.length - bytesPerS) / bytesPerS) * 1000 * 0.9);
    });

    it("udp and http by subdomain carry bytes end to end", async () => {
      const dgram = randomBytes(512);
      expect((await udpEcho(tunnels.udp.remote_port as number, dgram)).equals(dgram)).toBe(true);
      const r = await vhostGet(base + 1, `${subdomain}.frp.test`, "/hello");
      expect(r.status).toBe(200);
      expect(r.body).toBe(`hello from ${version} ${subdomain}.frp.test /hello`);
      // Any other host on the vhost port is not this customer's.
      expect((await vhostGet(base + 1, "other.frp.test")).status).toBe(404);
    });

    it("frps keeps a limited proxy's connection open after its visitor leaves, until the local service closes it", async () => {
      // Real frps (0.52–0.70): with a server-side bandwidth limit, the wrapper around the work
      // connection closes nothing (its close function calls itself), so the visitor's close never
      // reaches frpc; the bytes are counted when the local service ends the connection.
      const idle = async () => (await dashProxy("tcp", tunnels.tcp))?.curConns === 0;
      await waitUntil("no open connection", idle, 5_000);
      const before = Date.now();
      await tcpEcho(tunnels.tcp.remote_port as number, Buffer.from("short visit"));
      await sleep(ECHO_IDLE_MS / 2);
      expect((await dashProxy("tcp", tunnels.tcp))?.curConns, "still open after the visitor left").toBe(1);
      await waitUntil("closed by the local service's idle timeout", idle, 5_000);
      expect(Date.now() - before).toBeGreaterThanOrEqual(ECHO_IDLE_MS);
    });

    it("the remote port is Burrow's: another one is refused with the reason, frpc's \"any port\" gets the tunnel's", async () => {
      const c = await registerCustomer(s);
      const t = await api<TunnelView>("POST", "/user/tun", {
        token: c.token,
        body: {
          node_id: node.node_id,
          tun_name: "port",
          protocol: "tcp",
          local_port: local.tcpPort,
          remote_port: base + 10,
        },
      });
      const cfg = await api<TunnelConfig>("GET", `/user/tun/config?node_id=${node.node_id}`, { token: c.token });
      const line = `remotePort = ${base + 10}`;
      expect(cfg.toml).toContain(line);
      const run = (name: string, toml: string) => {
        const file = path.join(dir, `frpc-${name}.toml`);
        fs.writeFileSync(file, toml);
        return runFrp(bins.frpc, file);
      };
      // the customer edits the port: frps would allow it (allowPorts), Burrow does not
      const other = run("other-port", cfg.toml.replace(line, `remotePort = ${base + 11}`));
      await other.waitForLog(new RegExp(`远程端口应为 ${base + 10}`));
      await other.stop();
      // no port at all: frpc asks for any, Burrow's answer gives it the tunnel's
      const any = run("any-port", cfg.toml.replace(`${line}\n`, ""));
      try {
        await any.waitForLog(/start proxy success/);
        const p = await dash<{ proxies: DashProxy[] }>("/api/proxy/tcp");
        expect(p.proxies.find((x) => x.name === `u_${c.uid}.t_${t.tun_id}`)?.conf?.remotePort).toBe(base + 10);
        const data = randomBytes(1000);
        expect((await tcpEcho(base + 10, data)).back.equals(data)).toBe(true);
      } finally {
        await any.stop();
      }
    });

    it("http by a verified custom domain, and https by SNI with the certificate uploaded to the console", async () => {
      const c = await registerCustomer(s);
      const tag = randomBytes(3).toString("hex");
      const webDomain = `web-${tag}.example.com`;
      const tlsDomain = `tls-${tag}.example.com`;
      for (const domain of [webDomain, tlsDomain]) {
        const d = await api<DomainView>("POST", "/user/domain", {
          token: c.token,
          body: { domain, node_id: node.node_id },
        });
        for (const r of d.records)
          if (r.type === "TXT") await dns.setTxt(r.host, r.value);
          else await dns.setCname(r.host, r.value);
        const v = await api<DomainVerifyResult>("POST", "/user/domain/verify", {
          token: c.token,
          body: { id: d.id },
        });
        expect(v.domain.state, v.domain.problem ?? "").toBe("verified");
      }
      const create = (body: Record<string, unknown>) =>
        api<TunnelView>("POST", "/user/tun", { token: c.token, body: { node_id: node.node_id, ...body } });
      const site = await create({
        tun_name: "site",
        protocol: "http",
        local_port: local.httpPort,
        custom_domains: [webDomain],
      });
      await create({ tun_name: "tls", protocol: "https", local_port: local.httpPort, custom_domains: [tlsDomain] });
      // every http option the console offers, with encryption and compression
      await create({
        tun_name: "opts",
        protocol: "http",
        local_port: local.httpPort,
        subdomain: `opts${tag}`,
        use_encryption: true,
        use_compression: true,
        addon: { locations: ["/a"], http_user: "visitor", http_password: "s3cret", host_header_rewrite: "local.test" },
      });
      const chain = await makeChain([tlsDomain]);
      const cert = await api<{ id: number }>("POST", "/user/ssl", {
        token: c.token,
        body: {
          domain: tlsDomain,
          certificate: chain.leaf.pem + chain.intermediate.pem,
          private_key: chain.leaf.keyPem,
        },
      });
      // the files frpc's https2http plugin reads, downloaded from the console as a customer does
      const cdir = fs.mkdtempSync(path.join(dir, "customer-"));
      fs.mkdirSync(path.join(cdir, "certs", tlsDomain), { recursive: true });
      for (const [part, file] of [
        ["fullchain", "fullchain.pem"],
        ["key", "privkey.pem"],
      ]) {
        const res = await fetch(`${s.url}/api/user/ssl/${cert.id}/download?part=${part}`, {
          headers: { authorization: `Bearer ${c.token}` },
        });
        expect(res.status).toBe(200);
        fs.writeFileSync(path.join(cdir, "certs", tlsDomain, file), await res.text());
      }
      const cfg = await api<TunnelConfig>("GET", `/user/tun/config?node_id=${node.node_id}`, { token: c.token });
      expect(cfg.toml).toContain(`crtPath = "./certs/${tlsDomain}/fullchain.pem"`);
      const file = path.join(cdir, "frpc.toml");
      fs.writeFileSync(file, cfg.toml);
      const r = verify(bins.frpc, file);
      expect(r.status, r.output).toBe(0);
      const client = runFrp(bins.frpc, file, cdir);
      try {
        await waitUntil("both tunnels up", async () => (await vhostGet(base + 1, webDomain)).status === 200);
        expect((await vhostGet(base + 1, webDomain, "/x")).body).toBe(`hello from ${version} ${webDomain} /x`);
        const opts = `opts${tag}.frp.test`;
        const authed = await waitUntil("the options tunnel up", async () => {
          const r = await vhostGet(base + 1, opts, "/a/page", "visitor:s3cret");
          return r.status === 200 ? r : null;
        });
        expect(authed.body, "Host rewritten, path kept").toBe(`hello from ${version} local.test /a/page`);
        expect((await vhostGet(base + 1, opts, "/a")).status, "basic auth asked").toBe(401);
        expect((await vhostGet(base + 1, opts, "/b", "visitor:s3cret")).status, "outside locations").toBe(404);
        const got = await waitUntil("https served", () => httpsGet(base + 2, tlsDomain, chain.root.pem));
        expect(got).toMatchObject({ status: 200, subject: tlsDomain, body: `hello from ${version} ${tlsDomain} /` });
      } finally {
        await client.stop();
      }
      // http's bytes are counted when frps's pooled work connections close (here, with frpc):
      // late, and then billed once
      const counted = await waitUntil("the site's bytes counted", async () => {
        const p = (await dash<{ proxies: DashProxy[] }>("/api/proxy/http")).proxies.find(
          (x) => x.name === `u_${c.uid}.t_${site.tun_id}`,
        );
        return p && p.todayTrafficIn > 0 && p.todayTrafficOut > 0 && p.curConns === 0 ? p : null;
      });
      await poll();
      await poll();
      const billed = (
        await api<Paged<TunnelView>>("GET", "/user/tun?page=1&page_size=50", { token: c.token })
      ).list.find((t) => t.tun_id === site.tun_id) as TunnelView;
      expect(billed.traffic_in + billed.traffic_out).toBe(counted.todayTrafficIn + counted.todayTrafficOut);
    });

    it("bills the bytes the real dashboard counts exactly once, across kill -9 and a clean restart of frps", async () => {
      const billed = async () => {
        const t = await tunnel(tunnels.tcp.tun_id);
        return t.traffic_in + t.traffic_out;
      };
      await tcpEcho(tunnels.tcp.remote_port as number, randomBytes(64 * 1024));
      await waitUntil("the echo's connection counted", async () => {
        const p = await dashProxy("tcp", tunnels.tcp);
        return p && p.todayTrafficIn + p.todayTrafficOut >= 2 * (1024 * 1024 + 64 * 1024);
      });
      await poll();
      const p = (await dashProxy("tcp", tunnels.tcp)) as DashProxy;
      const counted = p.todayTrafficIn + p.todayTrafficOut;
      expect(await billed()).toBe(counted);
      await poll();
      expect(await billed(), "a second poll bills nothing again").toBe(counted);

      let total = counted;
      for (const signal of ["SIGKILL", "SIGTERM"] as const) {
        await frps.stop(signal);
        await waitUntil("the node seen offline", async () => (await poll()).status === 2);
        frps = runFrp(bins.frps, files.frps);
        await frps.waitForLog(/frps started successfully/);
        // frpc logs in again by itself (loginFailExit = false)
        await waitUntil(
          "frpc back on the restarted frps",
          async () => (await dashProxy("tcp", tunnels.tcp))?.status === "online",
          60_000,
        );
        await tcpEcho(tunnels.tcp.remote_port as number, randomBytes(32 * 1024));
        await waitUntil("the new connection counted", async () => {
          const q = await dashProxy("tcp", tunnels.tcp);
          return q && q.todayTrafficIn + q.todayTrafficOut >= 64 * 1024;
        });
        await poll();
        const q = (await dashProxy("tcp", tunnels.tcp)) as DashProxy;
        total += q.todayTrafficIn + q.todayTrafficOut;
        expect(await billed(), `after ${signal}: the old counters once, the restarted frps's on top`).toBe(total);
      }
      // and the plan's quota was charged the same bytes (tcp's and the others')
      const sub = await api<{ list: { traffic_used: number; kind: number; status: number }[] }>(
        "GET",
        "/user/subscription",
        { token: customer.token },
      );
      const all = (await myTunnels()).reduce((n, t) => n + t.traffic_in + t.traffic_out, 0);
      expect(sub.list.filter((x) => x.kind === 2 && x.status === 1).reduce((n, x) => n + x.traffic_used, 0)).toBe(all);
    });

    // 定时开放: a tunnel whose weekly window ends about a minute after it connects (windows are whole
    // minutes of Asia/Shanghai time). Started here and checked further down, so the minute passes
    // while the cases between run instead of in a sleep.
    const shanghai = (ms: number) => {
      const d = new Date(ms + 8 * 3_600_000);
      const hm = `${String(d.getUTCHours()).padStart(2, "0")}:${String(d.getUTCMinutes()).padStart(2, "0")}`;
      return { day: d.getUTCDay() || 7, hm };
    };
    let scheduled: {
      client: FrpProcess;
      tunnel: TunnelView;
      token: string;
      host: string;
      endsAt: number;
      opens: string;
      /** when frpc first logged the refusal (polled from its start: the check below may run minutes later) */
      cut: () => number | null;
      stopWatch: () => void;
    };

    it("定时开放: a tunnel inside its weekly window connects and serves (its window's end is checked below)", async () => {
      const { customer: g } = await customerOnPlan({ traffic: 10, bandwidth: 10, tunnel_limit: 1 });
      const host = `s${randomBytes(3).toString("hex")}`;
      const tunnel = await api<TunnelView>("POST", "/user/tun", {
        token: g.token,
        body: {
          node_id: node.node_id,
          tun_name: "sched",
          protocol: "http",
          local_port: local.httpPort,
          subdomain: host,
        },
      });
      // open from two minutes before the next whole minute at least 25 s away until it, and again 3 h later
      const endsAt = Math.ceil((Date.now() + 25_000) / 60_000) * 60_000;
      const from = shanghai(endsAt - 120_000);
      const later = shanghai(endsAt + 3 * 3_600_000);
      const set = await api<TunnelView>("PUT", `/user/tun/${tunnel.tun_id}/schedule`, {
        token: g.token,
        body: {
          mode: "weekly",
          windows: [
            { day: from.day, start: from.hm, end: shanghai(endsAt).hm },
            { day: later.day, start: later.hm, end: shanghai(endsAt + 4 * 3_600_000).hm },
          ],
        },
      });
      expect(set.schedule_note).toMatch(new RegExp(`^将于 (\\S+ )?${shanghai(endsAt).hm} 关闭$`));
      const cfg = await api<TunnelConfig>("GET", `/user/tun/config?node_id=${node.node_id}`, { token: g.token });
      const file = path.join(dir, "frpc-schedule.toml");
      fs.writeFileSync(file, cfg.toml);
      const client = runFrp(bins.frpc, file);
      const refusal = new RegExp(`隧道 sched 不在开放时间，将于 (\\S+ )?${later.hm} 开放`);
      let cutAt: number | null = null;
      const watch = setInterval(() => {
        if (cutAt === null && refusal.test(client.log())) cutAt = Date.now();
      }, 100);
      scheduled = {
        client,
        tunnel,
        token: g.token,
        host: `${host}.frp.test`,
        endsAt,
        opens: later.hm,
        cut: () => cutAt,
        stopWatch: () => clearInterval(watch),
      };
      await client.waitForLog(/start proxy success/);
      expect((await vhostGet(base + 1, scheduled.host, "/s")).status).toBe(200);
    });

    it("访客防护: real frps closes a denied visitor's connection at NewUserConn; an allowed one echoes", async () => {
      const port = tunnels.tcp.remote_port as number;
      const shield = (allow: string[], deny: string[]) =>
        api("PUT", `/user/tun/${tunnels.tcp.tun_id}/shield`, {
          token: customer.token,
          body: { allow, deny, rule_enabled: false, conns: 20, window_s: 60, ban_s: 3600 },
        });
      const becomes = (want: "echoed" | "closed") =>
        waitUntil(`a visitor ${want}`, async () => ((await tcpProbe(port, 2_000)) === want ? true : null), 30_000);
      try {
        // (run alone with -t, frpc may still be connecting)
        await becomes("echoed");
        // the visitors here come from loopback (frps may give it as ::ffff:127.0.0.1)
        await shield([], ["127.0.0.0/8"]);
        expect(await tcpProbe(port, 2_000)).toBe("closed");
        await shield(["127.0.0.1", "2001:db8::/32"], []);
        expect(await tcpProbe(port)).toBe("echoed");
        await shield(["192.0.2.0/24"], []);
        expect(await tcpProbe(port, 2_000)).toBe("closed");
      } finally {
        await shield([], []);
      }
    });

    it("a lock refuses new visitors at once and cuts the real session at the next heartbeat; frpc logs why", async () => {
      const reason = `real-frp 测试锁定 ${randomBytes(3).toString("hex")}`;
      expect(await tcpProbe(tunnels.tcp.remote_port as number)).toBe("echoed");
      // a visitor that stays connected through the lock, talking every 200 ms
      const held = heldConnection(tunnels.tcp.remote_port as number, 200);
      await waitUntil("the held connection echoing", async () => held.echoes() > 2, 5_000);
      const t0 = Date.now();
      await api("PATCH", "/super/tun", {
        token: admin,
        body: { tun_id: tunnels.tcp.tun_id, status: 3, banned_reason: reason },
      });
      // NewUserConn: refused from the next visitor on
      await waitUntil(
        "a new visitor refused",
        async () => (await tcpProbe(tunnels.tcp.remote_port as number, 2_000)) === "closed",
        5_000,
      );
      // the next Ping is refused, stock frpc drops its session, logs in again and NewProxy is refused with the reason
      await frpc.waitForLog(new RegExp(reason), (HEARTBEAT_S + 15) * 1000);
      expect(Date.now() - t0).toBeLessThan((HEARTBEAT_S + 15) * 1000);
      // stock frpc closes the connections of the session it drops (streams of one tcpMux session)
      // within frps's heartbeatTimeout at worst (the documented bound); how long it took is printed
      const cutAt = Date.now();
      await waitUntil(
        "the held connection closed with the session",
        async () => held.closed(),
        FRPS_HEARTBEAT_TIMEOUT * 1000 + 15_000,
      );
      await waitUntil(
        "the locked proxy gone from frps",
        async () => (await dashProxy("tcp", tunnels.tcp))?.status !== "online",
        FRPS_HEARTBEAT_TIMEOUT * 1000 + 15_000,
      ).catch(async (err) => {
        throw new Error(
          `${err.message}\ndashboard: ${JSON.stringify(await dashProxy("tcp", tunnels.tcp))}\nfrpc:\n${frpc.log()}\nfrps:\n${frps.log()}`,
        );
      });
      console.log(
        `[${version}] the held connection and the locked proxy gone ${Date.now() - cutAt} ms after frpc logged the refusal`,
      );
      // the customer's other tunnels came back with the new session
      await waitUntil(
        "udp back",
        async () => (await udpEcho(tunnels.udp.remote_port as number, Buffer.from("x"), 1_000)).length === 1,
        30_000,
      );
      expect((await tunnel(tunnels.tcp.tun_id)).status).toBe(3);
    });

    it("a ban, a delete, a downgrade and a lock of a client without heartbeats each cut their real session, with a second frpc from the same file too", async () => {
      /** a customer with tunnels on the node and frpc running their config (as edited by `edit`) */
      const withFrpc = async (bodies: Record<string, unknown>[], edit = (toml: string) => toml, copies = 1) => {
        const c = await registerCustomer(s);
        const made: TunnelView[] = [];
        for (const b of bodies)
          made.push(
            await api<TunnelView>("POST", "/user/tun", { token: c.token, body: { node_id: node.node_id, ...b } }),
          );
        return { ...c, made, clients: await startFrpc(c.token, edit, copies) };
      };
      const startFrpc = async (token: string, edit: (toml: string) => string, copies: number) => {
        const cfg = await api<TunnelConfig>("GET", `/user/tun/config?node_id=${node.node_id}`, { token });
        const file = path.join(dir, `frpc-${randomBytes(3).toString("hex")}.toml`);
        fs.writeFileSync(file, edit(cfg.toml));
        return Array.from({ length: copies }, () => runFrp(bins.frpc, file));
      };
      const online = async (c: { uid: number }, t: TunnelView) =>
        (await dash<{ proxies: DashProxy[] }>(`/api/proxy/${t.protocol}`)).proxies.find(
          (p) => p.name === `u_${c.uid}.t_${t.tun_id}`,
        )?.status === "online";
      const tcpTunnel = (port: number) => ({
        tun_name: `t${port}`,
        protocol: "tcp",
        local_port: local.tcpPort,
        remote_port: port,
      });

      // A: banned, with a second frpc started from the same file (frps refuses its duplicate proxy)
      const a = await withFrpc([tcpTunnel(base + 6)], undefined, 2);
      // B: deletes its tunnel
      const b = await withFrpc([tcpTunnel(base + 7)]);
      // C: on a plan of two tunnels that the operator cuts to one
      const { plan, customer: cUser } = await customerOnPlan({ traffic: 10, bandwidth: 10, tunnel_limit: 2 });
      const cTunnels: TunnelView[] = [];
      for (const name of ["older", "newer"])
        cTunnels.push(
          await api<TunnelView>("POST", "/user/tun", {
            token: cUser.token,
            body: {
              node_id: node.node_id,
              tun_name: name,
              protocol: "http",
              local_port: local.httpPort,
              subdomain: `${name}${subdomain}`,
            },
          }),
        );
      const cClients = await startFrpc(cUser.token, (t) => t, 1);
      // D: turned its heartbeats off in its copy of the file, then locked
      const d = await withFrpc([tcpTunnel(base + 8)], (t) =>
        t.replace(`transport.heartbeatInterval = ${HEARTBEAT_S}`, "transport.heartbeatInterval = -1"),
      );

      const sessions = {
        "A (two copies)": () => online(a, a.made[0]),
        B: () => online(b, b.made[0]),
        "C older": () => online(cUser, cTunnels[0]),
        "C newer": () => online(cUser, cTunnels[1]),
        "D (no heartbeats)": () => online(d, d.made[0]),
      };
      const down = async () => {
        const up = await Promise.all(Object.values(sessions).map((f) => f()));
        return Object.keys(sessions).filter((_, i) => !up[i]);
      };
      // 30 s: five frpc log in at once on a loaded machine (two cores shared with the other suites)
      await waitUntil("every session up", async () => (await down()).length === 0, 30_000).catch(async (err) => {
        const logs = [...a.clients, ...b.clients, ...cClients, ...d.clients].map((c) => c.log()).join("\n---\n");
        throw new Error(`${err.message}\nnot up: ${(await down()).join(", ")}\nfrpc:\n${logs}\nfrps:\n${frps.log()}`);
      });
      await Promise.any(a.clients.map((c) => c.waitForLog(/already exists/))).catch((err: AggregateError) => {
        throw new Error(err.errors.map((e) => e.message).join("\n"));
      });
      for (const port of [base + 6, base + 7, base + 8]) expect(await tcpProbe(port)).toBe("echoed");

      const t0 = Date.now();
      const lockReason = `no heartbeats ${randomBytes(2).toString("hex")}`;
      await Promise.all([
        api("PATCH", "/super/user/info", {
          token: admin,
          body: { uid: a.uid, status: -1, ban_reason: "real-frp ban" },
        }),
        api("DELETE", "/user/tun", { token: b.token, body: { tun_id: b.made[0].tun_id } }),
        api("PATCH", "/super/plan", { token: admin, body: { id: plan.id, tunnel_limit: 1 } }),
        api("PATCH", "/super/tun", {
          token: admin,
          body: { tun_id: d.made[0].tun_id, status: 3, banned_reason: lockReason },
        }),
      ]);
      // tcp visitors are refused at once (NewUserConn) in every case, heartbeats or not
      for (const port of [base + 6, base + 7, base + 8])
        await waitUntil(`visitors of ${port} refused`, async () => (await tcpProbe(port, 2_000)) === "closed", 5_000);

      const heartbeatBound = (HEARTBEAT_S + 15) * 1000;
      await Promise.all([
        ...a.clients.map((c) => c.waitForLog(/账号已被封禁/, heartbeatBound)),
        // "已删除" while frps still holds it, "不存在" once the hold is released (CloseProxy came first)
        b.clients[0].waitForLog(
          new RegExp(`隧道 (${b.made[0].tun_name} 已删除|${b.made[0].tun_id} 不存在)`),
          heartbeatBound,
        ),
        cClients[0].waitForLog(/隧道 newer 超出套餐隧道数量上限 1 条/, heartbeatBound),
      ]);
      expect(Date.now() - t0).toBeLessThan(heartbeatBound);
      expect(await online(cUser, cTunnels[1])).toBe(false);
      await waitUntil(
        "the older tunnel serving again",
        async () => {
          const r = await vhostGet(base + 1, `older${subdomain}.frp.test`);
          return r.status === 200;
        },
        30_000,
      );
      expect((await vhostGet(base + 1, `newer${subdomain}.frp.test`)).status).toBe(404);

      // A client without heartbeats: frps ≥ 0.58 drops it FRPS_HEARTBEAT_TIMEOUT after its login,
      // it logs in again and meets the lock; frps < 0.58 never drops it (why it is unsupported).
      const hbBound = (FRPS_HEARTBEAT_TIMEOUT + 15) * 1000;
      if (!tooOld) {
        await d.clients[0].waitForLog(new RegExp(lockReason), hbBound);
        await waitUntil("the locked proxy gone", async () => !(await online(d, d.made[0])));
      } else {
        await sleep(hbBound - (Date.now() - t0));
        expect(await online(d, d.made[0]), "frps < 0.58 keeps a client without heartbeats").toBe(true);
        expect(d.clients[0].log()).not.toContain(lockReason);
      }
      for (const c of [...a.clients, ...b.clients, ...cClients, ...d.clients]) await c.stop();
    });

    it("spent quota: a plan's last bytes through an unlimited tunnel, billed, refuse the real session with the reason", async () => {
      // 1 GB, no bandwidth limit anywhere (plan 0, node 0): the upload takes seconds on loopback
      const { customer: e } = await customerOnPlan({ traffic: 1, bandwidth: 0, tunnel_limit: 1 });
      const t = await api<TunnelView>("POST", "/user/tun", {
        token: e.token,
        body: {
          node_id: node.node_id,
          tun_name: "bulk",
          protocol: "tcp",
          local_port: local.sinkPort,
          remote_port: base + 9,
        },
      });
      const cfg = await api<TunnelConfig>("GET", `/user/tun/config?node_id=${node.node_id}`, { token: e.token });
      const file = path.join(dir, "frpc-quota.toml");
      fs.writeFileSync(file, cfg.toml);
      const client = runFrp(bins.frpc, file);
      try {
        await client.waitForLog(/start proxy success/);
        const GiB = 1024 ** 3;
        await tcpUpload(base + 9, GiB + 64 * 1024 * 1024);
        const t0 = Date.now();
        // the poller bills the closed connection's bytes; the quota is spent; the next heartbeat,
        // then the login, is refused
        await client.waitForLog(/流量已用尽/, (FRP_POLL_INTERVAL_S + HEARTBEAT_S + 15) * 1000);
        expect(Date.now() - t0).toBeLessThan((FRP_POLL_INTERVAL_S + HEARTBEAT_S + 15) * 1000);
        const subs = await api<{
          list: { traffic_used: number; traffic_quota: number; kind: number; status: number }[];
        }>("GET", "/user/subscription", { token: e.token });
        const plan = subs.list.find((x) => x.kind === 2 && x.traffic_quota === GiB);
        expect(plan?.status, "over quota").toBe(2);
        const billed = (
          await api<Paged<TunnelView>>("GET", "/user/tun?page=1&page_size=50", { token: e.token })
        ).list.find((x) => x.tun_id === t.tun_id) as TunnelView;
        expect(billed.traffic_in + billed.traffic_out).toBeGreaterThanOrEqual(GiB + 64 * 1024 * 1024);
        // a visitor is refused (closed), not let through to the sink (which would say nothing)
        expect(await tcpProbe(base + 9, 2_000)).toBe("closed");
      } finally {
        await client.stop();
      }
    });

    it("expiry: a plan that ends while its session is up refuses the next heartbeat and new visitors", async () => {
      const { customer: f } = await customerOnPlan({ traffic: 10, bandwidth: 10, tunnel_limit: 1 });
      await api<TunnelView>("POST", "/user/tun", {
        token: f.token,
        body: {
          node_id: node.node_id,
          tun_name: "ends",
          protocol: "tcp",
          local_port: local.tcpPort,
          remote_port: base + 11,
        },
      });
      // Time is the one thing the console cannot be asked for: the plan bought for a month is made
      // to end 10 s from now in the database, before the customer's first plugin call loads it.
      const endsAt = Date.now() + 10_000;
      const db = new Database(path.join(dir, "data", "burrow.sqlite"));
      try {
        db.pragma("busy_timeout = 5000");
        const changed = db
          .prepare(
            "update subscriptions set end_at = ? where uid = ? and kind = 2 and status = 1 and end_at is not null",
          )
          .run(new Date(endsAt).toISOString(), f.uid).changes;
        expect(changed).toBe(1);
      } finally {
        db.close();
      }
      const cfg = await api<TunnelConfig>("GET", `/user/tun/config?node_id=${node.node_id}`, { token: f.token });
      const file = path.join(dir, "frpc-expiry.toml");
      fs.writeFileSync(file, cfg.toml);
      const client = runFrp(bins.frpc, file);
      try {
        await client.waitForLog(/start proxy success/);
        expect(await tcpProbe(base + 11)).toBe("echoed");
        await sleep(Math.max(0, endsAt - Date.now()) + 500);
        // plan expiry is checked against the clock at every decision: visitors at once
        expect(await tcpProbe(base + 11, 2_000)).toBe("closed");
        // the session at its next heartbeat: frpc logs the refusal (or, when its new login is
        // answered from a reloaded entry, the customer is back on the free plan and logs in again)
        await client.waitForLog(/套餐已过期|try to reconnect/, (HEARTBEAT_S + 15) * 1000);
        expect(Date.now() - endsAt).toBeLessThan((HEARTBEAT_S + 15) * 1000);
      } finally {
        await client.stop();
      }
    });

    it("强制下线: a second frpc is refused while the first holds the proxy; freed, the holder is cut at its next heartbeat and cannot return, and the second gets in", async () => {
      // A live holder (an old frpc left running): its heartbeats are what the button refuses. A
      // stopped one (kill -STOP) sends none, so frps drops it only at heartbeatTimeout whatever
      // the console does (frp-protocol.md Appendix C; docs/frp.md 强制下线).
      const c = await registerCustomer(s);
      const made = await api<TunnelView>("POST", "/user/tun", {
        token: c.token,
        body: {
          node_id: node.node_id,
          tun_name: "free",
          protocol: "tcp",
          local_port: local.tcpPort,
          remote_port: base + 12,
        },
      });
      const cfg = await api<TunnelConfig>("GET", `/user/tun/config?tun_id=${made.tun_id}`, { token: c.token });
      const file = path.join(dir, `frpc-free-${randomBytes(3).toString("hex")}.toml`);
      fs.writeFileSync(file, cfg.toml);
      const name = `u_${c.uid}.t_${made.tun_id}`;
      const online = async () =>
        (await dash<{ proxies: DashProxy[] }>("/api/proxy/tcp")).proxies.find((p) => p.name === name)?.status ===
        "online";
      const a = runFrp(bins.frpc, file);
      await waitUntil("the first frpc holding the proxy", online);
      const b = runFrp(bins.frpc, file);
      await b.waitForLog(/already exists/);
      const held = await waitUntil("the doctor naming the holder", async () => {
        const ev = await api<Paged<TunnelEventRow>>("GET", `/user/tun/${made.tun_id}/events?size=50`, {
          token: c.token,
        });
        return ev.list.find((r) => r.kind === "proxy_held");
      });
      expect(held.reason).toMatch(/被另一会话占用：会话 \w+ 自 \d\d:\d\d:\d\d，127\.0\.0\.1，frpc \d+\.\d+\.\d+/);
      expect(held.fix).toBe("free_session");

      const t0 = Date.now();
      await api("POST", `/user/tun/${made.tun_id}/free`, { token: c.token });
      // the holder's next heartbeat is refused, and its immediate re-login too
      await a.waitForLog(/强制下线/, (HEARTBEAT_S + 15) * 1000);
      // frps closed its proxy with the session; the second frpc's retry of its refused proxy (every 30 s) gets it
      await waitUntil(
        "the second frpc serving",
        async () => (await online()) && (await tcpProbe(base + 12)) === "echoed",
        50_000,
      );
      console.log(`[${version}] 强制下线: the second frpc serving ${Date.now() - t0} ms after the button`);
      expect(Date.now() - t0).toBeLessThan((HEARTBEAT_S + 30 + 20) * 1000);
      expect(a.log()).not.toMatch(/start proxy success[\s\S]*强制下线[\s\S]*start proxy success/);
      await a.stop();
      await b.stop();
    });

    it("定时开放: when the window ends the next heartbeat cuts the real session; frpc logs when it opens next", async () => {
      const { client, tunnel, token, host, endsAt, opens, cut, stopWatch } = scheduled;
      try {
        const bound = Math.max(0, endsAt - Date.now()) + (HEARTBEAT_S + 15) * 1000;
        const at = await waitUntil("frpc logging the closed window's refusal", async () => cut(), bound);
        expect(at).toBeGreaterThanOrEqual(endsAt);
        expect(at - endsAt).toBeLessThan((HEARTBEAT_S + 15) * 1000);
        await waitUntil("the closed tunnel's proxy gone from frps", async () =>
          (await vhostGet(base + 1, host, "/s")).status === 404 ? true : null,
        );
        const row = (await api<Paged<TunnelView>>("GET", "/user/tun?page=1&page_size=50", { token })).list.find(
          (x) => x.tun_id === tunnel.tun_id,
        );
        expect(row?.schedule_note).toMatch(new RegExp(`^将于 (\\S+ )?${opens} 开放$`));
      } finally {
        stopWatch();
        await client.stop();
      }
    });

    it("PROXY protocol: the local service receives the visitor's address and source port in v1 and v2 (tcp and http), and no header without it", async () => {
      const svc = await proxyProtocolService();
      const { customer: c } = await customerOnPlan({ traffic: 10, bandwidth: 10, tunnel_limit: 4 });
      const tag = randomBytes(3).toString("hex");
      const create = (body: Record<string, unknown>) =>
        api<TunnelView>("POST", "/user/tun", {
          token: c.token,
          body: { node_id: node.node_id, local_port: svc.port, ...body },
        });
      await create({ tun_name: "pp1", protocol: "tcp", remote_port: base + 13, proxy_protocol: "v1" });
      await create({ tun_name: "pp2", protocol: "tcp", remote_port: base + 14, proxy_protocol: "v2" });
      await create({ tun_name: "web2", protocol: "http", subdomain: `pp2${tag}`, proxy_protocol: "v2" });
      await create({ tun_name: "web0", protocol: "http", subdomain: `pp0${tag}` });
      const cfg = await api<TunnelConfig>("GET", `/user/tun/config?node_id=${node.node_id}`, { token: c.token });
      const file = path.join(dir, `frpc-pp-${tag}.toml`);
      fs.writeFileSync(file, cfg.toml);
      expect(verify(bins.frpc, file).status).toBe(0);
      const client = runFrp(bins.frpc, file);
      try {
        // The console admitted all four (NewProxy has no PROXY protocol field to compare).
        await waitUntil(
          "the four tunnels connected",
          async () =>
            (await api<Paged<TunnelView>>("GET", "/user/tun?page=1&page_size=50", { token: c.token })).list.every(
              (t) => t.status === 1,
            ),
          15_000,
        );
        for (const [port, host, v] of [
          [base + 13, "any", "v1"],
          [base + 14, "any", "v2"],
          [base + 1, `pp2${tag}.frp.test`, "v2"],
        ] as const) {
          const r = await waitUntil(`a visit through ${host}:${port}`, () => visit(port, host).catch(() => null));
          expect(r.seen, `${v} through ${port}`).toEqual({ version: v, ip: "127.0.0.1", port: r.sourcePort });
        }
        const plain = await visit(base + 1, `pp0${tag}.frp.test`);
        expect(plain.seen.version).toBe("none");
      } finally {
        await client.stop();
        svc.close();
      }
    });

    it("端口范围: two ports of a range tunnel each reach their own local service (remote +i → local +i)", async () => {
      const { customer: c } = await customerOnPlan({
        traffic: 10,
        bandwidth: 10,
        tunnel_limit: 1,
        tunnel_peer_port_limit: 3,
      });
      const svc = await namedServices(3);
      try {
        const t = await api<TunnelView>("POST", "/user/tun", {
          token: c.token,
          body: {
            node_id: node.node_id,
            tun_name: "range",
            protocol: "tcp",
            local_port: svc.base,
            remote_port: base + 15,
            remote_port_end: base + 17,
          },
        });
        const cfg = await api<TunnelConfig>("GET", `/user/tun/config?tun_id=${t.tun_id}`, { token: c.token });
        const file = path.join(dir, `frpc-range-${t.tun_id}.toml`);
        fs.writeFileSync(file, cfg.toml);
        expect(verify(bins.frpc, file).status).toBe(0);
        const client = runFrp(bins.frpc, file);
        try {
          for (const i of [0, 2]) {
            const got = await waitUntil(`port ${base + 15 + i}`, () => tcpGreeting(base + 15 + i).catch(() => null));
            expect(got).toBe(`svc ${svc.base + i}`);
          }
          const row = (await api<Paged<TunnelView>>("GET", "/user/tun?page=1&page_size=5", { token: c.token })).list[0];
          expect(row).toMatchObject({ status: 1, addresses: [`127.0.0.1:${base + 15}–${base + 17}`] });
        } finally {
          await client.stop();
        }
      } finally {
        svc.close();
      }
    });

    it("通配符域名: an http tunnel on a verified *.<apex> is accepted by the plugin and serves any name under it; another customer's exact name wins", () =>
      wildcardCase({
        frpc: bins.frpc,
        dir,
        nodeId: node.node_id,
        vhostPort: base + 1,
        dns,
        api,
        customer: () => registerCustomer(s),
      }));

    /** What both secret-tunnel cases run with: a serving and a visitor frpc of one customer on this node. */
    const secretEnv = () => ({
      frpc: bins.frpc,
      dir,
      nodeId: node.node_id,
      api,
      customer: async () => (await customerOnPlan({ traffic: 10, bandwidth: 10, tunnel_limit: 3 })).customer,
      poll,
    });

    it("私密隧道: stcp and sudp carry bytes from a second, visitor frpc to the local service, billed from the dashboard", () =>
      secretTunnelsCase(secretEnv()));

    it("私密隧道 xtcp: hole punching fails on loopback, the visitor falls back to the stcp proxy, billed once", () =>
      xtcpFallbackCase(secretEnv()));

    it("一键启动: the Linux installer's wrapper downloads and verifies frpc, fetches the config by token, carries bytes; a new tunnel after a restart; a rotated token stops it; a wrong checksum never runs the download (the verified cached frpc runs, else exit 2)", () =>
      launchCase({
        frpc: bins.frpc,
        dir,
        nodeId: node.node_id,
        ports: [base + 18, base + 19],
        admin,
        api,
        customer: async () => (await customerOnPlan({ traffic: 10, bandwidth: 10, tunnel_limit: 3 })).customer,
      }));

    it("stopping frpc shows its tunnels offline in the console within seconds", async () => {
      await frpc.stop("SIGTERM");
      await waitUntil(
        "the tunnels offline",
        async () => {
          const list = await myTunnels();
          return (
            list.find((t) => t.tun_id === tunnels.udp.tun_id)?.status === 2 &&
            list.find((t) => t.tun_id === tunnels.http.tun_id)?.status === 2
          );
        },
        10_000,
      );
    });

    it("外网检测: frpc stopped → frpc not connected (tcp port closed, frps's 404 for the name); frpc up → the echo answers and the page's status through the real vhost", async () => {
      const reach = (id: number) => api<ReachReport>("POST", `/user/tun/${id}/reach`, { token: customer.token });
      // the lock case left the tcp tunnel locked: unlocked, it is the customer's again
      if ((await tunnel(tunnels.tcp.tun_id)).status === 3)
        await api("PATCH", "/super/tun", { token: admin, body: { tun_id: tunnels.tcp.tun_id, status: 2 } });
      await frpc.stop("SIGTERM");
      await waitUntil("the http tunnel offline", async () => (await tunnel(tunnels.http.tun_id)).status === 2, 10_000);
      expect(await reach(tunnels.tcp.tun_id)).toMatchObject({
        verdict: "frpc_offline",
        connect: { ok: false, port: tunnels.tcp.remote_port },
      });
      const down = await reach(tunnels.http.tun_id);
      expect(down).toMatchObject({ verdict: "frpc_offline", http: [{ status: 404, title: null }] });
      expect(down.dns).toMatchObject([{ name: `${subdomain}.frp.test`, ok: true, addresses: ["127.0.0.1"] }]);

      const again = runFrp(bins.frpc, files.frpc);
      try {
        await waitUntil(
          "the tunnels connected again",
          async () => (await myTunnels()).every((t) => t.status === 1),
          15_000,
        );
        expect(await reach(tunnels.tcp.tun_id)).toMatchObject({ verdict: "ok", connect: { ok: true } });
        const up = await reach(tunnels.http.tun_id);
        expect(up).toMatchObject({
          verdict: "ok",
          http: [{ url: `http://${subdomain}.frp.test:${base + 1}/`, status: 200, title: null }],
        });
        expect(up.duration_ms).toBeLessThan(10_000);
      } finally {
        await again.stop();
      }
    });
  });
}
