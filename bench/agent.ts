// The node agent (apps/agent) against today's direct mode, in one run on one machine:
// 1. the agent's plugin answer at a fixed rate (p99, target ≤ 2 ms), beside a bare route (a node
//    http server answering "allow" to the same JSON) at the same rate;
// 2. the console's CPU per plugin op: in direct mode frps calls the console for every op; in agent
//    mode the agent answers and the console only takes the journaled events (visitors, holds,
//    logins) it delivers. The console runs in this process; the load, the agent and the bare route
//    each in a child, so process.cpuUsage() here is the console's alone (issue 32).
// Loopback only, bounded: BENCH_ROUNDS × 4 paced runs of BENCH_LATENCY_SECONDS.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { GB } from "../apps/server/src/modules/subscriptions/default-plan";
import { freePort } from "../apps/server/test/free-port";
import { benchConsole } from "./console";
import { type FrpsOp, frpsBodies } from "./frps-ops";
import { inChild, machine, report } from "./lib";
import type { PacedRequest, PacedResult } from "./paced";
import { benchTunnel, seedBenchCustomers } from "./seed-rows";

const USERS = Number(process.env.BENCH_AGENT_USERS ?? 300);
/** A busy node's rate of plugin calls (visitors dominate): fixed, the same for every target. */
const RATE = Number(process.env.BENCH_AGENT_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_LATENCY_SECONDS ?? 10);
const WARMUP_SECONDS = 2;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const P99_MAX_MS = 2;
const AGENT_DIR = path.resolve(import.meta.dirname, "../apps/agent");

const { dir, config, app, ctx } = await benchConsole("agent");

// Two nodes alike but for the mode: the seeded one (direct) and a copy of it in agent mode; every
// customer has one tcp tunnel on each.
const direct = await ctx.db.selectFrom("nodes").selectAll().orderBy("node_id").executeTakeFirstOrThrow();
const { node_id: _id, ...fields } = direct;
const agentNode = await ctx.db
  .insertInto("nodes")
  .values({ ...fields, name: `${direct.name}-agent`, agent_mode: 1, plugin_secret: randomBytes(16).toString("hex") })
  .returningAll()
  .executeTakeFirstOrThrow();
const now = new Date().toISOString();
type Seeded = { uid: number; token: string; tunnels: Record<"direct" | "agent", { tun_id: number; port: number }> };
const users: Seeded[] = [];
const portOf = (i: number) => direct.port_min + (i % (direct.port_max - direct.port_min + 1));
const tag = { phonePrefix: "152", name: "agentbench" };
await seedBenchCustomers(ctx.db, { tag, count: USERS, quota: 10 * GB, now }, async (rows, i) => {
  const tunnelsOn = (node_id: number) =>
    ctx.db
      .insertInto("tunnels")
      .values(
        rows.map((r, k) =>
          benchTunnel({ uid: r.uid, node_id, tun_name: `bench${node_id}`, remote_port: portOf(i + k) }, now),
        ),
      )
      .returning(["tun_id", "remote_port"])
      .execute();
  const [d, a] = [await tunnelsOn(direct.node_id), await tunnelsOn(agentNode.node_id)];
  for (const [k, r] of rows.entries())
    users.push({
      uid: r.uid,
      token: r.frp_token,
      tunnels: {
        direct: { tun_id: d[k].tun_id, port: d[k].remote_port ?? 0 },
        agent: { tun_id: a[k].tun_id, port: a[k].remote_port ?? 0 },
      },
    });
});

await app.listen({ host: "127.0.0.1", port: 0 });
const consoleUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

const children: ChildProcess[] = [];
const until = async <T>(what: string, fn: () => Promise<T | null | undefined | false>, ms = 20_000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn().catch(() => null);
    if (v) return v;
    if (Date.now() > end) throw new Error(`bench/agent: ${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

// The agent as a node runs it: its bundle (`npm run build -w @burrow/agent`), its own process.
const built = spawnSync(process.execPath, ["build.mjs"], { cwd: AGENT_DIR, encoding: "utf8" });
if (built.status !== 0) throw new Error(`building the agent failed: ${built.stderr}`);
const agentPort = await freePort();
// BENCH_AGENT_PROF=<dir>: the agent writes a V8 CPU profile there as it exits (what its answers cost).
const prof = process.env.BENCH_AGENT_PROF ? ["--cpu-prof", "--cpu-prof-dir", process.env.BENCH_AGENT_PROF] : [];
const agentChild = spawn(process.execPath, [...prof, path.join(AGENT_DIR, "dist/burrow-agent.mjs")], {
  env: {
    PATH: process.env.PATH,
    CONSOLE_URL: consoleUrl,
    NODE_ID: String(agentNode.node_id),
    NODE_SECRET: agentNode.plugin_secret,
    AGENT_PLUGIN_PORT: String(agentPort),
    AGENT_STATE_DIR: path.join(dir, "agent-state"),
  },
  stdio: "ignore",
});
children.push(agentChild);
const agentUrl = `http://127.0.0.1:${agentPort}`;
const agentHealth = async () =>
  (await (await fetch(`${agentUrl}/healthz`)).json()) as { ready: boolean; link: string; journal: { pending: number } };
await until("the agent's first snapshot", async () => (await agentHealth()).ready);

// The bare route: a node http server that reads the body and allows, in its own process like the agent.
const barePort = await freePort();
const bareChild = spawn(
  process.execPath,
  [
    "-e",
    `require("node:http").createServer((q, s) => { const c = []; q.on("data", (d) => c.push(d)); q.on("end", () => { JSON.parse(Buffer.concat(c)); s.writeHead(200, { "content-type": "application/json" }); s.end('{"reject":false,"unchange":true}'); }); }).listen(${barePort}, "127.0.0.1");`,
  ],
  { stdio: "ignore" },
);
children.push(bareChild);
const bareUrl = `http://127.0.0.1:${barePort}`;
await until("the bare route", async () => (await fetch(bareUrl, { method: "POST", body: "{}" })).ok);

const headers = { "content-type": "application/json", "user-agent": "Go-http-client/1.1" };
type Mode = "direct" | "agent";
/** frps's body of `op` for the customer's tunnel on the node of mode `m` */
const body = (op: FrpsOp, u: Seeded, m: Mode) => frpsBodies[op]({ uid: u.uid, token: u.token, ...u.tunnels[m] });
const pathOf = (m: Mode, op: FrpsOp) =>
  m === "direct"
    ? `/api/frp/plugin/${direct.node_id}/${direct.plugin_secret}?op=${op}&version=0.1.0`
    : `/frp/plugin?op=${op}&version=0.1.0`;
/** Plugin calls over every customer with ops in the given proportions (frps's own envelope). */
function mix(m: Mode, weights: Partial<Record<FrpsOp, number>>): PacedRequest[] {
  const ops = Object.entries(weights).flatMap(([op, w]) => Array<FrpsOp>(w ?? 0).fill(op as FrpsOp));
  return users.map((u, i) => {
    const op = ops[i % ops.length];
    return {
      method: "POST",
      path: pathOf(m, op),
      headers,
      body: JSON.stringify({ version: "0.1.0", op, content: body(op, u, m) }),
    };
  });
}
const urlOf = { direct: consoleUrl, agent: agentUrl };

// Every op allowed in both modes (a benchmark of refusals would measure the wrong thing), and both
// warm: every customer's frpc logged in once, its proxy registered (the holds journaled).
for (const m of ["direct", "agent"] as const)
  for (const u of users)
    for (const op of ["Login", "NewProxy"] as const) {
      const r = await fetch(`${urlOf[m]}${pathOf(m, op)}`, {
        method: "POST",
        headers,
        body: JSON.stringify({ version: "0.1.0", op, content: body(op, u, m) }),
      });
      const j = (await r.json()) as { reject: boolean; reject_reason?: string };
      if (j.reject) throw new Error(`${m} ${op} rejected: ${j.reject_reason}`);
    }
await until("the agent's journal delivered", async () => (await agentHealth()).journal.pending === 0, 60_000);

const loads = {
  bare: { url: bareUrl, requests: mix("agent", { NewUserConn: 1 }).map((r) => ({ ...r, path: "/plugin" })) },
  agent_new_user_conn: { url: agentUrl, requests: mix("agent", { NewUserConn: 1 }) },
  agent_mixed_1_1_8: { url: agentUrl, requests: mix("agent", { Login: 1, NewProxy: 1, NewUserConn: 8 }) },
  direct_mixed_1_1_8: { url: consoleUrl, requests: mix("direct", { Login: 1, NewProxy: 1, NewUserConn: 8 }) },
};
type Load = keyof typeof loads;

/** A child's user + system CPU so far, in µs (Linux /proc; clock ticks of 10 ms), or null elsewhere. */
const childCpuUs = (pid: number | undefined): number | null => {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(f[11]) + Number(f[12])) * 10_000;
  } catch {
    return null;
  }
};
const collect = () => (globalThis as { gc?: () => void }).gc?.();
/**
 * One paced run, with the console's CPU (this process) per request sent: in agent mode counted
 * until the agent's journal of the run is delivered, so the console's share of every op counts.
 */
async function measure(name: Load) {
  collect();
  const l = loads[name];
  const cpu0 = process.cpuUsage();
  // the process answering, when it is one of ours: the agent or the bare route
  const server = l.url === agentUrl ? agentChild : l.url === bareUrl ? bareChild : null;
  const serverCpu0 = childCpuUs(server?.pid);
  const t0 = performance.now();
  const r = await inChild<PacedResult>({
    paced: {
      url: l.url,
      requests: l.requests,
      rate: RATE,
      seconds: SECONDS,
      warmupSeconds: WARMUP_SECONDS,
      connections: CONNECTIONS,
    },
  });
  if (l.url === agentUrl)
    await until("the run's journal delivered", async () => (await agentHealth()).journal.pending === 0, 60_000);
  const cpu = process.cpuUsage(cpu0);
  const wallMs = performance.now() - t0;
  const sent = Math.round(RATE * (SECONDS + WARMUP_SECONDS));
  const serverCpu1 = childCpuUs(server?.pid);
  // the answering process's own CPU per request (the agent's idle cost, a ping in 15 s, is noise)
  const serverCpuPerReq =
    server && serverCpu0 !== null && serverCpu1 !== null ? Number(((serverCpu1 - serverCpu0) / sent).toFixed(1)) : null;
  return {
    ...r,
    console_cpu_us: cpu.user + cpu.system,
    server_cpu_us_per_req: serverCpuPerReq,
    wall_ms: Math.round(wallMs),
    sent,
  };
}
type Measured = Awaited<ReturnType<typeof measure>>;

// What the console spends with nothing asked of it (the agent's stream, timers), per second: taken
// off each run's CPU so that what remains is the ops' cost.
collect();
const idle0 = process.cpuUsage();
const idleT0 = performance.now();
await new Promise((r) => setTimeout(r, SECONDS * 1000));
const idleCpu = process.cpuUsage(idle0);
const idleUsPerMs = (idleCpu.user + idleCpu.system) / (performance.now() - idleT0);

const rounds: Record<Load, Measured>[] = [];
for (let i = 0; i < ROUNDS; i++) {
  const round = {} as Record<Load, Measured>;
  for (const name of Object.keys(loads) as Load[]) round[name] = await measure(name);
  rounds.push(round);
}
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const names = Object.keys(loads) as Load[];
const ratio = (a: number, b: number) => Number((a / Math.max(b, 0.001)).toFixed(2));
const p99 = Object.fromEntries(names.map((n) => [n, median(rounds.map((r) => r[n].p99))])) as Record<Load, number>;
const cpuPerOp = (m: Measured) => Math.max(0, (m.console_cpu_us - idleUsPerMs * m.wall_ms) / m.sent);
const consoleCpu = Object.fromEntries(
  names.filter((n) => n !== "bare").map((n) => [n, Number(median(rounds.map((r) => cpuPerOp(r[n]))).toFixed(1))]),
) as Record<Exclude<Load, "bare">, number>;

report("agent", {
  ...machine(config.DATABASE_URL),
  users: USERS,
  rate_rps: RATE,
  seconds_per_run: SECONDS,
  connections: CONNECTIONS,
  rounds: ROUNDS,
  p99_ms: p99,
  // the agent's p99 over the bare route's, same rate, same run: what answering from the copy adds
  agent_p99_over_bare_ms: {
    new_user_conn: Number((p99.agent_new_user_conn - p99.bare).toFixed(2)),
    mixed_1_1_8: Number((p99.agent_mixed_1_1_8 - p99.bare).toFixed(2)),
  },
  console_idle_cpu_us_per_s: Math.round(idleUsPerMs * 1000),
  console_cpu_us_per_op: consoleCpu,
  agent_cpu_us_per_op: {
    new_user_conn: median(rounds.map((r) => r.agent_new_user_conn.server_cpu_us_per_req ?? 0)),
    mixed_1_1_8: median(rounds.map((r) => r.agent_mixed_1_1_8.server_cpu_us_per_req ?? 0)),
  },
  bare_cpu_us_per_op: median(rounds.map((r) => r.bare.server_cpu_us_per_req ?? 0)),
  // the ratios to the bare route in the same run: what a machine's speed and load cancel out of
  agent_over_bare: {
    p99_new_user_conn: ratio(p99.agent_new_user_conn, p99.bare),
    p99_mixed_1_1_8: ratio(p99.agent_mixed_1_1_8, p99.bare),
    cpu_new_user_conn: ratio(
      median(rounds.map((r) => r.agent_new_user_conn.server_cpu_us_per_req ?? 0)),
      median(rounds.map((r) => r.bare.server_cpu_us_per_req ?? 0)),
    ),
  },
  console_cpu_direct_over_agent: Number(
    (consoleCpu.direct_mixed_1_1_8 / Math.max(0.1, consoleCpu.agent_mixed_1_1_8)).toFixed(1),
  ),
  by_round: rounds,
  targets: { agent_p99_max_ms: P99_MAX_MS },
  met: {
    agent_p99_new_user_conn: p99.agent_new_user_conn <= P99_MAX_MS,
    agent_p99_mixed_1_1_8: p99.agent_mixed_1_1_8 <= P99_MAX_MS,
    // where the bare route itself is above the target, the load generator sets the floor
    bare_route_p99: p99.bare <= P99_MAX_MS,
  },
});
console.log(
  `\nagent: p99 at ${RATE} req/s — bare route ${p99.bare} ms, agent ${p99.agent_new_user_conn} ms (NewUserConn) / ${p99.agent_mixed_1_1_8} ms (mix 1:1:8), direct mode ${p99.direct_mixed_1_1_8} ms (target ≤ ${P99_MAX_MS}); ` +
    `console CPU per op ${consoleCpu.direct_mixed_1_1_8} µs direct vs ${consoleCpu.agent_mixed_1_1_8} µs agent (mix 1:1:8); ` +
    `CPU per answer: agent ${median(rounds.map((r) => r.agent_new_user_conn.server_cpu_us_per_req ?? 0))} µs, bare route ${median(rounds.map((r) => r.bare.server_cpu_us_per_req ?? 0))} µs (NewUserConn); load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs`,
);

for (const c of children) c.kill("SIGTERM");
await app.close();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
