#!/usr/bin/env -S npx tsx
import fs from "node:fs";
import { parseArgs } from "node:util";
import { FrpcClient, parseFrpcConfig } from "./frpc";
import { FrpsSim, type FrpsSimOptions } from "./frps";
import { frpsOptionsFromToml } from "./frps-config";
import { PLUGIN_OPS } from "./plugin-client";

const HELP = `frps-sim: a simulated frps node driven by Burrow-generated configs.

Usage:
  frps-sim --frps frps.toml --frpc frpc.toml [--frpc other.toml] [options]
  frps-sim --plugin <url> --dashboard-port 7500 --dashboard-user admin --dashboard-password <pw> --frpc frpc.toml

  --frps <file>               the node's frps.toml (ports, allowPorts, webServer, [[httpPlugins]])
  --plugin <url>              the node's plugin URL (instead of --frps)
  --dashboard-addr <addr>     dashboard listen address (default 127.0.0.1)
  --dashboard-port <port>     dashboard port (default from frps.toml, else 7500)
  --dashboard-user <user>     dashboard basic-auth user
  --dashboard-password <pw>   dashboard basic-auth password
  --vhost-http-port <port>    --vhost-https-port <port>   --subdomain-host <host>
  --frpc <file>               an frpc.toml to run as a client (repeatable)
  --traffic-interval <s>      seconds between two rounds of simulated visitors (default 5, 0 = none)
  --heartbeat <s>             override the clients' heartbeat interval
  --time-scale <x>            speed up frpc's timers (0.1 = ten times faster)
  --help
`;

/** Runs a simulated frps with the given frpc configs logged in, generating traffic until stopped. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      frps: { type: "string" },
      plugin: { type: "string" },
      "dashboard-addr": { type: "string" },
      "dashboard-port": { type: "string" },
      "dashboard-user": { type: "string" },
      "dashboard-password": { type: "string" },
      "vhost-http-port": { type: "string" },
      "vhost-https-port": { type: "string" },
      "subdomain-host": { type: "string" },
      frpc: { type: "string", multiple: true },
      "traffic-interval": { type: "string", default: "5" },
      heartbeat: { type: "string" },
      "time-scale": { type: "string", default: "1" },
      help: { type: "boolean" },
    },
  });
  if (values.help || (!values.frps && !values.plugin)) {
    process.stdout.write(HELP);
    process.exit(values.help ? 0 : 2);
  }
  const log = (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);
  const base: FrpsSimOptions = values.frps ? frpsOptionsFromToml(fs.readFileSync(values.frps, "utf8")) : {};
  const port = (v: string | undefined) => (v ? Number(v) : undefined);
  const opts: FrpsSimOptions = {
    ...base,
    plugins: values.plugin ? [{ name: "burrow", url: values.plugin, ops: PLUGIN_OPS }] : base.plugins,
    vhostHTTPPort: port(values["vhost-http-port"]) ?? base.vhostHTTPPort,
    vhostHTTPSPort: port(values["vhost-https-port"]) ?? base.vhostHTTPSPort,
    subDomainHost: values["subdomain-host"] ?? base.subDomainHost,
    webServer: {
      addr: values["dashboard-addr"] ?? base.webServer?.addr ?? "127.0.0.1",
      port: port(values["dashboard-port"]) ?? base.webServer?.port ?? 7500,
      user: values["dashboard-user"] ?? base.webServer?.user,
      password: values["dashboard-password"] ?? base.webServer?.password,
    },
    onExchange: (x) => {
      const answer = x.status === 200 ? x.response.trim().slice(0, 160) : `HTTP ${x.status ?? "error"}`;
      log(`plugin ${x.op} → ${answer}`);
    },
  };
  const sim = new FrpsSim(opts);
  await sim.start();
  log(
    `frps-sim dashboard on ${sim.dashboardUrl} (plugins: ${(opts.plugins ?? []).map((p) => p.url).join(", ") || "none"})`,
  );

  const timeScale = Number(values["time-scale"]);
  const clients: FrpcClient[] = [];
  for (const file of values.frpc ?? []) {
    const cfg = parseFrpcConfig(fs.readFileSync(file, "utf8"));
    if (values.heartbeat) cfg.heartbeatInterval = Number(values.heartbeat);
    const client = new FrpcClient(sim, cfg, { timers: true, timeScale, hostname: "frps-sim", log });
    clients.push(client);
    try {
      await client.start();
    } catch (err) {
      log(`[frpc ${cfg.user}] login failed: ${(err as Error).message}${cfg.loginFailExit ? "" : " (retrying)"}`);
      if (!cfg.loginFailExit) void client.reconnect();
    }
  }

  // frps rotates its daily counters at local midnight (Asia/Shanghai, as Burrow's nodes run).
  let day = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
  const interval = Number(values["traffic-interval"]) * 1000;
  const round = async () => {
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    if (today !== day) {
      sim.rollover();
      day = today;
      log("midnight: daily counters rotated");
    }
    let visits = 0;
    for (const c of clients) {
      for (const [name, state] of c.proxies) {
        if (state.status !== "running") continue;
        const bytesIn = 1024 + Math.floor(Math.random() * 64 * 1024);
        const bytesOut = 4096 + Math.floor(Math.random() * 256 * 1024);
        const v = await c.visit(name, {
          bytesIn,
          bytesOut,
          remoteAddr: `198.51.100.${1 + (visits % 250)}:${40000 + visits}`,
          hold: true,
        });
        if (v.accepted) {
          visits++;
          // Keep it open a moment so that curConns shows on the dashboard.
          setTimeout(v.close, Math.min(interval, 3000) * Math.random()).unref();
        } else log(`visitor to ${name} refused: ${v.reason}`);
      }
    }
    if (visits) log(`${visits} visitor connection(s) simulated`);
  };
  const timer = interval > 0 ? setInterval(() => void round(), interval) : null;

  const shutdown = async () => {
    if (timer) clearInterval(timer);
    log("stopping: closing proxies");
    for (const c of clients) await c.stop();
    await sim.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown());
  process.on("SIGTERM", () => void shutdown());
}

main().catch((err) => {
  process.stderr.write(`frps-sim: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
