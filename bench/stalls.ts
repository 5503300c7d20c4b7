// How long the event loop stalls while the console's heaviest pages are read on the scale
// database (scale-seed.ts): the operator's order and tunnel lists, /super/flow and the overview,
// and a customer's node list, answered in process (`app.inject`) in rounds 20 ms apart for
// STALLS_SECONDS (default 25: the figures they memoize go stale every 10 s and are refreshed).
// Every request in flight, frps's plugin calls too, waits out a stall: on SQLite a refresh computed
// on the main connection (a count of 1M orders, 300k tunnels grouped by node) held the loop for
// 1.3–2 s, on the worker thread 21–36 ms (docs/performance.md, "Seventh round").
// SQLite by default; DATABASE_URL=postgres://… for PostgreSQL.
import { monitorEventLoopDelay } from "node:perf_hooks";
import pino from "pino";
import { buildApp } from "../apps/server/src/app";
import { issueSession } from "../apps/server/src/modules/auth/sessions";
import { report } from "./lib";
import { scaleConfig } from "./scale-seed";

const SECONDS = Number(process.env.STALLS_SECONDS ?? 25);
const config = scaleConfig(1);
const { app, ctx } = await buildApp(config, { logger: pino({ level: "silent" }) });
const operator = (await issueSession(ctx, 1, { ip: "127.0.0.1", userAgent: "bench" })).token;
const customer = (await issueSession(ctx, 2, { ip: "127.0.0.1", userAgent: "bench" })).token;
const calls: [string, string][] = [
  [operator, "/api/super/epay/order?page=1&size=20"],
  [operator, "/api/super/tun/list?page=1&size=20"],
  [operator, "/api/super/flow?page=1&size=20"],
  [operator, "/api/super/viewInfo"],
  [customer, "/api/user/node?page=1&size=20"],
];
const round = () =>
  Promise.all(
    calls.map(([token, url]) => app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}` } })),
  );
// The first answers compute every figure on the main connection (their size is not known yet).
for (const r of await round()) if (r.statusCode !== 200) throw new Error(`${r.statusCode} ${r.body}`);
const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
const end = Date.now() + SECONDS * 1000;
let rounds = 0;
while (Date.now() < end) {
  await round();
  rounds++;
  await new Promise((r) => setTimeout(r, 20));
}
delay.disable();
const ms = (ns: number) => Number((ns / 1e6).toFixed(1));
report(`stalls-${config.DATABASE_URL ? "postgres" : "sqlite"}`, {
  seconds: SECONDS,
  rounds,
  event_loop_delay_ms: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) },
});
await app.close();
