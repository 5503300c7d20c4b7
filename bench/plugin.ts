// The frp plugin endpoint on the hot path: throughput and p99 for Login, NewProxy and NewUserConn
// mixes, as a ratio against a bare Fastify route that parses the same JSON in the same run.
// Targets (issue 15): ratio ≥ 0.75, and p99 < 3 ms at a quarter of the bare route's throughput,
// reported beside the bare route's own p99 at that rate. Loopback only, a few seconds per mix.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { constants, monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import type autocannon from "autocannon";
import Fastify from "fastify";
import { frpRuntime } from "../apps/server/src/modules/frp/frp.routes";
import { GB } from "../apps/server/src/modules/subscriptions/default-plan";
import { benchConsole } from "./console";
import { type FrpsOp, frpsBodies } from "./frps-ops";
import { inChild, type LoadResult, loadFromChild, machine, report, WRK } from "./lib";
import type { PacedRequest, PacedResult } from "./paced";
import { benchTunnel, seedBenchCustomers } from "./seed-rows";

const USERS = Number(process.env.BENCH_PLUGIN_USERS ?? 1_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

const { dir, config, app, ctx } = await benchConsole("plugin");

// One node (the seeded one), USERS customers on the free plan, one tcp tunnel each.
const node = await ctx.db.selectFrom("nodes").selectAll().orderBy("node_id").executeTakeFirstOrThrow();
const now = new Date().toISOString();
const users: { uid: number; token: string; tun_id: number; port: number }[] = [];
const tag = { phonePrefix: "151", name: "bench" };
await seedBenchCustomers(ctx.db, { tag, count: USERS, quota: 10 * GB, now }, async (rows, i) => {
  const tunnels = await ctx.db
    .insertInto("tunnels")
    .values(
      rows.map((r, k) =>
        benchTunnel(
          {
            uid: r.uid,
            node_id: node.node_id,
            tun_name: "bench",
            remote_port: node.port_min + ((i + k) % (node.port_max - node.port_min + 1)),
          },
          now,
        ),
      ),
    )
    .returning(["tun_id", "uid", "remote_port"])
    .execute();
  for (const [k, t] of tunnels.entries())
    users.push({ uid: t.uid, token: rows[k].frp_token, tun_id: t.tun_id, port: t.remote_port ?? 0 });
});

// BENCH_SHIELD_ENTRIES=<n>: every tunnel gets a 访客防护 deny list of n entries (half single
// addresses, half CIDRs, IPv4 and IPv6, none matching the bench's visitor), so NewUserConn checks
// them all: the bound is no more than 5 % below the run without (docs/shield.md).
const SHIELD_ENTRIES = Number(process.env.BENCH_SHIELD_ENTRIES ?? 0);
if (SHIELD_ENTRIES > 0) {
  const deny = JSON.stringify(
    Array.from({ length: SHIELD_ENTRIES }, (_, i) =>
      i % 4 === 0 ? `2001:db8:${i.toString(16)}::/48` : i % 2 ? `10.${i}.0.0/16` : `192.0.2.${i % 250}`,
    ),
  );
  for (let i = 0; i < users.length; i += 500)
    await ctx.db
      .insertInto("tunnel_shields")
      .values(
        users.slice(i, i + 500).map((u) => ({
          tun_id: u.tun_id,
          uid: u.uid,
          allow_list: "[]",
          deny_list: deny,
          rule_enabled: 0,
          rule_conns: 20,
          rule_window_s: 60,
          rule_ban_s: 3600,
          version: 1,
          updated_at: now,
        })),
      )
      .execute();
}

await app.listen({ host: "127.0.0.1", port: 0 });
const apiUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
const pluginPath = `/api/frp/plugin/${node.node_id}/${node.plugin_secret}`;

const bare = Fastify();
bare.post("/plugin", async () => ({ reject: false, unchange: true }));
await bare.listen({ host: "127.0.0.1", port: 0 });
const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`;

const headers = { "content-type": "application/json", "user-agent": "Go-http-client/1.1" };
const bodies = frpsBodies;
type Op = FrpsOp;

/** A request sequence over every user with ops in the given proportions. */
function mix(weights: Partial<Record<Op, number>>): autocannon.Request[] {
  const ops = Object.entries(weights).flatMap(([op, w]) => Array<Op>(w ?? 0).fill(op as Op));
  return users.map((u, i) => {
    const op = ops[i % ops.length];
    return {
      method: "POST",
      path: `${pluginPath}?op=${op}&version=0.1.0`,
      headers,
      body: JSON.stringify({ version: "0.1.0", op, content: bodies[op](u) }),
    };
  });
}

// Sanity: every op is allowed (a benchmark of rejections would measure the wrong thing).
for (const op of Object.keys(bodies) as Op[]) {
  const r = await fetch(`${apiUrl}${pluginPath}?op=${op}&version=0.1.0`, {
    method: "POST",
    headers,
    body: JSON.stringify({ version: "0.1.0", op, content: bodies[op](users[0]) }),
  });
  const j = (await r.json()) as { reject: boolean; reject_reason?: string };
  if (j.reject) throw new Error(`${op} rejected: ${j.reject_reason}`);
}

const run = (requests: autocannon.Request[], url = apiUrl, loader: Loader = "autocannon") =>
  loadFromChild({ url, requests, seconds: SECONDS, connections: CONNECTIONS }, loader);
type Loader = "autocannon" | "wrk";

// Warm the decision cache the way a running node does: every customer's frpc logs in once.
// (The first call per customer loads them from the database; everything after is memory.)
const warm0 = performance.now();
await Promise.all(
  users.map((u) =>
    fetch(`${apiUrl}${pluginPath}?op=Login&version=0.1.0`, {
      method: "POST",
      headers,
      body: JSON.stringify({ version: "0.1.0", op: "Login", content: bodies.Login(u) }),
    }).then((r) => r.arrayBuffer()),
  ),
);
const cold = { warm_up_ms: Math.round(performance.now() - warm0), users_cached: frpRuntime(ctx).cache.stats().users };

// The machine may be busy with other work (two vCPUs shared with the load generator): each mix is
// compared with the bare route (same body) measured right before and right after it, the better of
// the two, in BENCH_ROUNDS rounds; the median of the rounds' ratios is the result.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const sample = JSON.stringify({ version: "0.1.0", op: "NewUserConn", content: bodies.NewUserConn(users[0]) });
const bareRun = (loader: Loader = "autocannon") =>
  run([{ method: "POST", path: "/plugin", headers, body: sample }], bareUrl, loader);
const mixes = {
  login: mix({ Login: 1 }),
  new_proxy: mix({ NewProxy: 1 }),
  new_user_conn: mix({ NewUserConn: 1 }),
  mixed_1_1_8: mix({ Login: 1, NewProxy: 1, NewUserConn: 8 }),
};
const names = Object.keys(mixes);
// BENCH_PROFILE=<mix or "bare">: that load alone, once to warm up and once under V8's profiler,
// written to a .cpuprofile (open it in Chrome's DevTools), with its CPU per request; then exit.
if (process.env.BENCH_PROFILE) {
  const name = process.env.BENCH_PROFILE;
  const target = () => (name === "bare" ? bareRun() : run(mixes[name as keyof typeof mixes]));
  const { Session } = await import("node:inspector/promises");
  const session = new Session();
  session.connect();
  await target();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  const r = await target();
  const { profile } = await session.post("Profiler.stop");
  const file = path.join(os.tmpdir(), `plugin-${name}.cpuprofile`);
  fs.writeFileSync(file, JSON.stringify(profile));
  console.log(JSON.stringify({ profile: file, rps: r.rps, cpu_us_per_req: r.cpu_us_per_req }));
  process.exit(0);
}
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const round3 = (x: number) => Number(x.toFixed(3));
/**
 * Every mix in BENCH_ROUNDS rounds, each between two runs of the bare route, from one loader: the
 * rounds, and the medians of the rounds' ratios (throughput over the better adjacent baseline;
 * the round's cheapest bare-route CPU per request over the mix's).
 */
async function throughput(loader: Loader) {
  const rounds: { baselines: LoadResult[]; results: Record<string, LoadResult> }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const baselines: LoadResult[] = [await bareRun(loader)];
    const results: Record<string, LoadResult> = {};
    for (const [name, requests] of Object.entries(mixes)) {
      results[name] = await run(requests, apiUrl, loader);
      baselines.push(await bareRun(loader));
    }
    rounds.push({ baselines, results });
  }
  const roundRatios = rounds.map(({ baselines, results }) =>
    Object.fromEntries(
      names.map((k, i) => [k, round3(results[k].rps / Math.max(baselines[i].rps, baselines[i + 1].rps))]),
    ),
  );
  const roundBareCpu = rounds.map(({ baselines }) => Math.min(...baselines.map((b) => b.cpu_us_per_req)));
  const roundCpuRatios = rounds.map(({ results }, r) =>
    Object.fromEntries(names.map((k) => [k, round3(roundBareCpu[r] / results[k].cpu_us_per_req)])),
  );
  const ratios = Object.fromEntries(names.map((k) => [k, median(roundRatios.map((r) => r[k]))]));
  const cpuRatios = Object.fromEntries(names.map((k) => [k, median(roundCpuRatios.map((r) => r[k]))]));
  return {
    rounds,
    roundRatios,
    roundCpuRatios,
    ratios,
    cpuRatios,
    cpu: {
      bare: median(roundBareCpu),
      ...Object.fromEntries(names.map((k) => [k, median(rounds.map((r) => r.results[k].cpu_us_per_req))])),
    },
    worstRatio: Math.min(...Object.values(ratios)),
    worstCpuRatio: Math.min(...Object.values(cpuRatios)),
  };
}
const { rounds, roundRatios, roundCpuRatios, ratios, cpuRatios, cpu, worstRatio, worstCpuRatio } =
  await throughput("autocannon");
const byWrk = WRK ? await throughput("wrk") : null;
const allBaselines = rounds.flatMap((r) => r.baselines);

// Latency below saturation, from paced.ts's steady open-loop load (autocannon's overallRate is a
// per-second quota sent back to back, i.e. saturation for most of each second). Rates are fractions
// of the bare route's throughput in this run: an eighth, a quarter and a half. The p99 target is
// checked at a quarter, and the bare route's own p99 at the same rate is reported beside it: the
// load generator shares the machine, and where it (not the server) sets the tail the bare route
// shows it too (on a fast 2-vCPU day its p99 was 4–8 ms at a quarter while the server's event-loop
// delay stayed at 2 ms). Both servers start each run from a collected heap, so a run neither
// inherits the garbage of the runs before it nor leaves its own to the next one; a run is long
// enough (LATENCY_SECONDS) that the major collections its own allocation causes fall inside it and
// count. Each rate is run in BENCH_ROUNDS rounds (bare, then the mix) and the median p99 is the result.
const LATENCY_SECONDS = Number(process.env.BENCH_LATENCY_SECONDS ?? 10);
const collect = () => (globalThis as { gc?: () => void }).gc?.();
/** A paced run, with what held up this process meanwhile: event-loop delay and GC pauses. */
async function pacedRun(url: string, requests: PacedRequest[], rate: number) {
  collect();
  const heapMb = Math.round(process.memoryUsage().heapUsed / 2 ** 20);
  // The collection above is reported to observers after they subscribe: only later ones count.
  const since = performance.now();
  const delay = monitorEventLoopDelay({ resolution: 1 });
  const pauses: { kind: number; ms: number }[] = [];
  const gcs = new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if (e.startTime >= since)
        pauses.push({ kind: (e as { detail?: { kind?: number } }).detail?.kind ?? 0, ms: e.duration });
  });
  gcs.observe({ entryTypes: ["gc"] });
  delay.enable();
  // Two unmeasured seconds first: the code of a server that sat idle during the other's run (and
  // through the collections above) is compiled and optimised again before latencies count.
  const paced = { url, rate, seconds: LATENCY_SECONDS, warmupSeconds: 2, connections: CONNECTIONS, requests };
  const result = await inChild<PacedResult>({ paced });
  delay.disable();
  gcs.disconnect();
  const major = pauses.filter((p) => p.kind !== constants.NODE_PERFORMANCE_GC_MINOR);
  const ms = (n: number) => Number(n.toFixed(1));
  return {
    ...result,
    server_event_loop_delay_ms: { p99: ms(delay.percentile(99) / 1e6), max: ms(delay.max / 1e6) },
    server_heap_used_mb: heapMb,
    server_gc: {
      minor: pauses.length - major.length,
      minor_max_ms: ms(Math.max(0, ...pauses.filter((p) => !major.includes(p)).map((p) => p.ms))),
      major: major.length,
      major_max_ms: ms(Math.max(0, ...major.map((p) => p.ms))),
    },
  };
}
const bareRps = median(allBaselines.map((b) => b.rps));
const bareRequests = [{ method: "POST", path: "/plugin", headers, body: sample }];
type Paced = Awaited<ReturnType<typeof pacedRun>>;
const latency: Record<
  string,
  { rate_rps: number; p99_ms: { bare: number; mixed_1_1_8: number }; by_round: { bare: Paced; mixed_1_1_8: Paced }[] }
> = {};
for (const [name, share] of [
  ["eighth_of_bare", 8],
  ["quarter_of_bare", 4],
  ["half_of_bare", 2],
] as const) {
  const rate = Math.round(bareRps / share);
  const byRound: { bare: Paced; mixed_1_1_8: Paced }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    byRound.push({
      bare: await pacedRun(bareUrl, bareRequests, rate),
      mixed_1_1_8: await pacedRun(apiUrl, mixes.mixed_1_1_8, rate),
    });
  }
  latency[name] = {
    rate_rps: rate,
    p99_ms: {
      bare: median(byRound.map((r) => r.bare.p99)),
      mixed_1_1_8: median(byRound.map((r) => r.mixed_1_1_8.p99)),
    },
    by_round: byRound,
  };
}
await frpRuntime(ctx).writer.flush();
const recorded = await ctx.db
  .selectFrom("tunnel_conns")
  .select((eb) => [eb.fn.countAll<number>().as("rows"), eb.fn.sum<number>("conn_count").as("conns")])
  .executeTakeFirstOrThrow();

const RATIO_MIN = 0.75;
const P99_MAX_MS = 3;
const quarter = latency.quarter_of_bare;
const atAQuarter = {
  rate_rps: quarter.rate_rps,
  p99_ms: quarter.p99_ms.mixed_1_1_8,
  bare_route_p99_ms: quarter.p99_ms.bare,
  p99_over_bare_ms: Number((quarter.p99_ms.mixed_1_1_8 - quarter.p99_ms.bare).toFixed(2)),
};
report(SHIELD_ENTRIES > 0 ? `plugin-shield-${SHIELD_ENTRIES}` : "plugin", {
  ...machine(config.DATABASE_URL),
  shield_entries: SHIELD_ENTRIES,
  users: USERS,
  seconds_per_mix: SECONDS,
  connections: CONNECTIONS,
  rounds: ROUNDS,
  throughput_by_round: rounds.map(({ baselines, results }) => ({
    bare_route_rps: baselines.map((b) => b.rps),
    bare_route_p99_ms: baselines.map((b) => b.p99),
    ...results,
  })),
  ratio_to_bare_by_round: roundRatios,
  ratio_to_bare: ratios,
  cpu_us_per_request: cpu,
  cpu_ratio_to_bare_by_round: roundCpuRatios,
  cpu_ratio_to_bare: cpuRatios,
  // The same rounds from wrk (where installed): a generator far cheaper than the server, so the
  // ratio is the two servers' and not the wake-ups of a generator that shares the CPUs.
  wrk: byWrk && {
    throughput_by_round: byWrk.rounds.map(({ baselines, results }) => ({
      bare_route_rps: baselines.map((b) => b.rps),
      ...Object.fromEntries(
        Object.entries(results).map(([k, r]) => [k, { rps: r.rps, p99: r.p99, cpu_us_per_req: r.cpu_us_per_req }]),
      ),
    })),
    ratio_to_bare_by_round: byWrk.roundRatios,
    ratio_to_bare: byWrk.ratios,
    cpu_us_per_request: byWrk.cpu,
    cpu_ratio_to_bare: byWrk.cpuRatios,
  },
  latency_at_steady_rate: latency,
  cache_warm_up: cold,
  connections_recorded: Number(recorded.conns),
  connection_log_rows: Number(recorded.rows),
  connections_dropped: frpRuntime(ctx).writer.dropped,
  targets: { ratio_min: RATIO_MIN, p99_max_ms_at_a_quarter: P99_MAX_MS },
  at_a_quarter_of_bare: atAQuarter,
  met: {
    wall_clock_ratio: worstRatio >= RATIO_MIN,
    wall_clock_ratio_wrk: byWrk ? byWrk.worstRatio >= RATIO_MIN : null,
    cpu_ratio: worstCpuRatio >= RATIO_MIN,
    p99_at_a_quarter: atAQuarter.p99_ms < P99_MAX_MS,
    // Whether the bare route itself stays under the target at that rate (if not, the load
    // generator sets the floor and the plugin's p99 is read against the bare route's).
    bare_route_p99_at_a_quarter: atAQuarter.bare_route_p99_ms < P99_MAX_MS,
  },
});
console.log(
  `\nplugin: worst throughput ratio ${worstRatio} (autocannon), ${byWrk?.worstRatio ?? "-"} (wrk), worst CPU-per-request ratio ${worstCpuRatio} (medians of ${ROUNDS} rounds; target ≥ ${RATIO_MIN}); ` +
    `mix p99 at a quarter of the bare route (${atAQuarter.rate_rps} req/s) ${atAQuarter.p99_ms} ms, bare route ${atAQuarter.bare_route_p99_ms} ms at the same rate (target < ${P99_MAX_MS}); ` +
    `an eighth ${latency.eighth_of_bare.p99_ms.mixed_1_1_8} ms (bare ${latency.eighth_of_bare.p99_ms.bare}); load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs`,
);

await app.close();
await bare.close();
fs.rmSync(dir, { recursive: true, force: true });
