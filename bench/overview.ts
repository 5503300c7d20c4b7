// The operator's overview (GET /super/viewInfo) on a large database: BENCH_USERS customers
// (default 100k), BENCH_ORDERS orders (default 1M) spread over the last year, BENCH_TUNNELS tunnels
// with a month of daily traffic rows. Reports the first (cold) answer, which computes the 30
// finished days once, and p50/p95/p99 of the answers after it, plus the query plans on SQLite.
// SQLite by default; DATABASE_URL=postgres://… (an empty database) for PostgreSQL.
import fs from "node:fs";
import { type Kysely, sql } from "kysely";
import { issueSession } from "../apps/server/src/modules/auth/sessions";
import { benchConsole } from "./console";
import { report } from "./lib";

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const TUNNELS = Number(process.env.BENCH_TUNNELS ?? 20_000);
const TRAFFIC_TUNNELS = Math.min(TUNNELS, Number(process.env.BENCH_TRAFFIC_TUNNELS ?? 5_000));
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const DAY = 86_400_000;

const { dir, config, app, ctx } = await benchConsole("overview");
const pg = Boolean(config.DATABASE_URL);
const db = ctx.db;

/** Inserts rows in multi-row statements of `batch`, `per` statements per transaction. */
async function seed<T>(table: string, total: number, batch: number, row: (n: number) => T): Promise<number> {
  const t0 = performance.now();
  const per = 20;
  for (let i = 0; i < total; i += batch * per) {
    await db.transaction().execute(async (trx) => {
      for (let j = i; j < Math.min(total, i + batch * per); j += batch) {
        const rows = Array.from({ length: Math.min(batch, total - j) }, (_, k) => row(j + k));
        // One generic seeder for several tables: rows are checked by the database, not by Kysely's types.
        const loose = trx as unknown as Kysely<Record<string, Record<string, unknown>>>;
        await loose
          .insertInto(table)
          .values(rows as Record<string, unknown>[])
          .execute();
      }
    });
  }
  return Math.round(performance.now() - t0);
}

const now = Date.now();
const iso = (ms: number) => new Date(ms).toISOString();
const seedMs: Record<string, number> = {};

seedMs.users = await seed("users", USERS, 1000, (n) => ({
  phone: `150${String(n).padStart(8, "0")}`,
  password_hash: "x",
  role: 1,
  status: n % 50 === 0 ? -1 : 1,
  nickname: `u${n}`,
  frp_token: `tok${n}`,
  invite_code: `INV${n}`,
  created_at: iso(now - (n % 365) * DAY - (n % 1440) * 60_000),
}));

// Orders over the last 365 days: most paid, some closed, a few refunded; a quarter are recharges.
seedMs.orders = await seed("orders", ORDERS, 1000, (n) => {
  const at = now - (n % 365) * DAY - (n % 1440) * 60_000;
  const status = n % 10 === 0 ? -1 : n % 97 === 0 ? -2 : 1;
  return {
    trade_id: `B${n}`,
    uid: (n % USERS) + 2,
    type: (n % 4) + 1,
    pay_method: 2,
    status,
    name: "bench",
    action: "new",
    amount: 1000 + (n % 50) * 100,
    created_at: iso(at),
    expires_at: iso(at + 900_000),
    paid_at: status === -1 ? null : iso(at),
    refunded_at: status === -2 ? iso(at + DAY) : null,
    refunded_amount: status === -2 ? 500 : 0,
  };
});

const node = await db.selectFrom("nodes").select("node_id").executeTakeFirstOrThrow();
seedMs.tunnels = await seed("tunnels", TUNNELS, 500, (n) => ({
  uid: (n % USERS) + 2,
  node_id: node.node_id,
  tun_name: `t${n}`,
  protocol: "tcp",
  local_ip: "127.0.0.1",
  local_port: 22,
  remote_port: 10000 + n,
  status: n % 3 === 0 ? 1 : n % 17 === 0 ? -1 : 2,
  addon: "{}",
  created_at: iso(now),
  updated_at: iso(now),
}));
const days = Array.from({ length: 31 }, (_, i) => iso(now + 8 * 3600_000 - i * DAY).slice(0, 10));
seedMs.traffic = await seed("tunnel_traffic", TRAFFIC_TUNNELS * days.length, 1000, (n) => ({
  tun_id: (n % TRAFFIC_TUNNELS) + 1,
  day: days[Math.floor(n / TRAFFIC_TUNNELS)],
  uid: 2,
  node_id: node.node_id,
  traffic_in: 1_000_000 + n,
  traffic_out: 2_000_000,
}));
if (pg) await sql`analyze`.execute(db);
else await sql`analyze`.execute(db);

const { token } = await issueSession(ctx, 1, { ip: "127.0.0.1", userAgent: "bench" });
const call = async () => {
  const r = await app.inject({
    method: "GET",
    url: "/api/super/viewInfo",
    headers: { authorization: `Bearer ${token}` },
  });
  if (r.statusCode !== 200) throw new Error(`viewInfo answered ${r.statusCode}: ${r.body}`);
  return r;
};

const t0 = performance.now();
const first = await call();
const coldMs = performance.now() - t0;
const times: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const s = performance.now();
  await call();
  times.push(performance.now() - s);
}
times.sort((a, b) => a - b);
const pct = (p: number) => Number(times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))].toFixed(2));

// The query plans of the live (today) queries, to show they use indexes rather than scans.
const todayStart = iso(new Date(`${days[0]}T00:00:00.000Z`).getTime() - 8 * 3600_000);
const plans: Record<string, string[]> = {};
const explain = async (name: string, q: string) => {
  const rows = await sql.raw(`${pg ? "explain" : "explain query plan"} ${q}`).execute(db);
  plans[name] = (rows.rows as Record<string, unknown>[]).map((r) =>
    String(r.detail ?? r["QUERY PLAN"] ?? JSON.stringify(r)),
  );
};
await explain(
  "revenue_today",
  `select sum(amount) from orders where paid_at >= '${todayStart}' and paid_at < '${iso(now + DAY)}' and status in (1, -2)`,
);
await explain("refunds_today", `select sum(refunded_amount) from orders where refunded_at >= '${todayStart}'`);
await explain("users_banned", "select count(*) from users where status = -1");
await explain("tunnels_by_status", "select status, count(*) from tunnels group by status");
await explain(
  "traffic_today",
  `select day, sum(traffic_in + traffic_out) from tunnel_traffic where day >= '${days[0]}' group by day`,
);
await explain("signups_today", `select count(*) from users where created_at >= '${todayStart}'`);

const body = JSON.parse(first.body).data;
report(`overview-${pg ? "postgres" : "sqlite"}`, {
  database: pg ? "postgres" : "sqlite",
  users: USERS,
  orders: ORDERS,
  tunnels: TUNNELS,
  traffic_rows: TRAFFIC_TUNNELS * days.length,
  seed_ms: seedMs,
  cold_first_call_ms: Number(coldMs.toFixed(1)),
  runs: RUNS,
  p50_ms: pct(50),
  p95_ms: pct(95),
  p99_ms: pct(99),
  target_p95_ms: 20,
  sample: { users_total: body.users_total, revenue_month: body.revenue.month, tunnels: body.tunnels },
  plans,
});
await app.close();
fs.rmSync(dir, { recursive: true, force: true });
