// The node poller at scale: NODES simulated frps dashboards (real HTTP on loopback) with PROXIES
// proxies each, polled by pollAll as the 30 s job does. Measures a first poll, an idle poll, a
// poll with 10 % and with 100 % of the proxies carrying traffic, the first poll of a new day and the
// polls after it that collect yesterday's tails. Each pollAll must fit well inside the interval.
import { fork } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pollAll } from "../apps/server/src/modules/frp/poller";
import { endlessSubscriptionRow, GB } from "../apps/server/src/modules/subscriptions/default-plan";
import { addDays, shanghaiDate, shanghaiDayStart } from "../apps/server/src/shared/time";
import { benchConsole } from "./console";
import { machine, report } from "./lib";
import { benchTunnel, benchUser } from "./seed-rows";
import type { FarmRequest } from "./sim-farm";

// The simulated nodes live in a child process (their own CPU, like real frps machines).
const farm = fork(path.join(import.meta.dirname, "sim-farm.ts"), [], { execArgv: ["--import", "tsx"] });
let seq = 0;
type FarmCommand = FarmRequest extends infer R ? (R extends { id: number } ? Omit<R, "id"> : never) : never;
function ask<T>(req: FarmCommand): Promise<T> {
  const id = ++seq;
  return new Promise((resolve, reject) => {
    const onMessage = (m: { id: number; result?: T; error?: string }) => {
      if (m.id !== id) return;
      farm.off("message", onMessage);
      if (m.error) reject(new Error(m.error));
      else resolve(m.result as T);
    };
    farm.on("message", onMessage);
    farm.send({ ...req, id });
  });
}

const NODES = Number(process.env.BENCH_NODES ?? 100);
const PROXIES = Number(process.env.BENCH_PROXIES ?? 1_000);
const USERS_PER_NODE = 10;
const INTERVAL_S = 30;

const { dir, config, app, ctx } = await benchConsole("poller");
const db = ctx.db;

const setup0 = performance.now();
const seed = await db.selectFrom("nodes").selectAll().orderBy("node_id").executeTakeFirstOrThrow();
const plan = await db.selectFrom("plans").select(["id", "type"]).where("is_default", "=", 1).executeTakeFirstOrThrow();
// Only the benchmark's nodes are polled.
await db.updateTable("nodes").set({ status: -1 }).where("node_id", "=", seed.node_id).execute();
const now = new Date().toISOString();
const PASSWORD = "bench-dashboard";
const nodeIds: number[] = [];
const farmNodes: { user: string; name: string; port: number }[][] = [];
let phone = 0;
for (let n = 0; n < NODES; n++) {
  const node = await db
    .insertInto("nodes")
    .values({
      ...seed,
      node_id: undefined,
      name: `bench-${n}`,
      status: 2,
      api_addr: "http://127.0.0.1:9",
      api_user: "admin",
      api_password: PASSWORD,
      port_min: 10000,
      port_max: 10000 + PROXIES,
      created_at: now,
    })
    .returning("node_id")
    .executeTakeFirstOrThrow();
  nodeIds.push(node.node_id);
  const users = await db
    .insertInto("users")
    .values(Array.from({ length: USERS_PER_NODE }, () => benchUser({ phonePrefix: "152", name: "poll" }, phone++, now)))
    .returning("uid")
    .execute();
  await db
    .insertInto("subscriptions")
    .values(users.map((u) => endlessSubscriptionRow(u.uid, plan, 1024 * GB, now)))
    .execute();
  const proxies: { user: string; name: string; port: number }[] = [];
  for (let i = 0; i < PROXIES; i += 500) {
    const rows = await db
      .insertInto("tunnels")
      .values(
        Array.from({ length: Math.min(500, PROXIES - i) }, (_, k) =>
          benchTunnel(
            {
              uid: users[(i + k) % USERS_PER_NODE].uid,
              node_id: node.node_id,
              tun_name: `t${i + k}`,
              remote_port: 10000 + i + k,
            },
            now,
          ),
        ),
      )
      .returning(["tun_id", "uid", "remote_port"])
      .execute();
    for (const r of rows) proxies.push({ user: `u_${r.uid}`, name: `t_${r.tun_id}`, port: r.remote_port ?? 0 });
  }
  farmNodes.push(proxies);
}
const urls = await ask<string[]>({ cmd: "start", nodes: farmNodes, password: PASSWORD });
for (const [i, nodeId] of nodeIds.entries())
  await db.updateTable("nodes").set({ api_addr: urls[i] }).where("node_id", "=", nodeId).execute();
const setupMs = Math.round(performance.now() - setup0);

const today = shanghaiDate();
let clock = shanghaiDayStart(today).getTime() + 10 * 3600_000;
/** One pollAll at the next interval, timed. */
async function timedPoll(label: string, at?: number) {
  clock = at ?? clock + INTERVAL_S * 1000;
  const t0 = performance.now();
  const results = await pollAll(ctx, { now: new Date(clock), leaseMs: 25_000 });
  const ms = Math.round(performance.now() - t0);
  const charged = results.reduce((n, r) => n + r.charged, 0);
  const failed = results.filter((r) => r.status !== 1).length;
  console.log(`${label}: ${ms} ms for ${results.length} nodes (${failed} not online), ${charged} bytes charged`);
  return { ms, nodes: results.length, failed, charged, fits_interval: ms < INTERVAL_S * 1000 };
}
const traffic = (share: number) => ask<boolean>({ cmd: "traffic", share });

const first = await timedPoll("first poll (all proxies new)");
const idle = await timedPoll("idle poll");
await traffic(0.1);
const tenth = await timedPoll("10% of proxies with traffic");
await traffic(1);
const all = await timedPoll("every proxy with traffic");
await ask<boolean>({ cmd: "rollover" });
await traffic(0.1);
const rollover = await timedPoll(
  "first poll of a new day (tails noted, 100 per node read)",
  shanghaiDayStart(addDays(today, 1)).getTime() + 10 * 3600_000,
);
const tails: Awaited<ReturnType<typeof timedPoll>>[] = [];
for (let i = 0; i < 9; i++) tails.push(await timedPoll(`next poll ${i + 1} (100 more tails per node)`));

const counts = await db
  .selectFrom("tunnel_traffic")
  .select((eb) => eb.fn.countAll<number>().as("n"))
  .executeTakeFirstOrThrow();
report("poller", {
  ...machine(config.DATABASE_URL),
  nodes: NODES,
  proxies_per_node: PROXIES,
  setup_ms: setupMs,
  interval_s: INTERVAL_S,
  polls: { first, idle, ten_percent_traffic: tenth, all_traffic: all, rollover },
  tail_polls_ms: tails.map((p) => p.ms),
  per_node_ms_all_traffic: Number((all.ms / NODES).toFixed(1)),
  traffic_rows: Number(counts.n),
  met: [first, idle, tenth, all, rollover, ...tails].every((p) => p.fits_interval && p.failed === 0),
});

await ask<boolean>({ cmd: "stop" });
await app.close();
fs.rmSync(dir, { recursive: true, force: true });
