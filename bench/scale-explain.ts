// The query plans behind the "API at scale" calls (docs/performance.md), on the database of
// scale-seed.ts as it is now (run it before and after a migration to compare). Prints the plan
// and one timed run of each query. SQLite by default; DATABASE_URL=postgres://… for PostgreSQL;
// SCALE_EXPLAIN_ONLY=prefix,… for some of them.
import path from "node:path";
import SQLite from "better-sqlite3";
import pg from "pg";
import { SCALE, type SeedInfo, scaleConfig, seedPhone } from "./scale-seed";

const config = scaleConfig(SCALE);
const isPg = Boolean(config.DATABASE_URL);
const client = isPg ? new pg.Client({ connectionString: config.DATABASE_URL }) : undefined;
const lite = isPg ? undefined : new SQLite(path.resolve(config.DATA_DIR, "burrow.sqlite"), { readonly: true });
await client?.connect();
const all = async (q: string): Promise<Record<string, unknown>[]> =>
  client ? (await client.query(q)).rows : (lite?.prepare(q).all() as Record<string, unknown>[]);

const info = JSON.parse(
  String((await all("select value from settings where key = 'bench_scale'"))[0]?.value ?? "null"),
) as SeedInfo | null;
if (!info) throw new Error("not a scale database: run scale-seed.ts first");
const today = info.today;
const weekAgo = new Date(Date.parse(`${today}T00:00:00Z`) - 6 * 86_400_000).toISOString().slice(0, 10);
const monthAgo = new Date(Date.parse(`${today}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);

/** the bench's searches and deep pages (scale.ts) */
const part = seedPhone(4242).slice(3, 10);
const midTunnels = Math.floor(info.counts.tunnels / 20 / 2) * 20;
const midOrders = Math.floor(info.counts.orders / 20 / 2) * 20;

/** pageIds' anchors: the id at every 1,000th row down to `depth`, one recursive statement. */
const anchors = (step: string, depth: number, id = "orders.id") =>
  `with recursive page_anchors(id, n) as (select cast(9007199254740991 as bigint), 0 union all select cast((${step} order by ${id} desc limit 1 offset 999) as bigint), n + 1 from page_anchors where id is not null and n < ${2 ** Math.ceil(Math.log2(Math.floor((depth + 1) / 1000)))}) select id from page_anchors where n > 0 and id is not null order by n`;

const midAnchor = (await all(anchors("select orders.id from orders where orders.id < page_anchors.id", midOrders)))[
  Math.floor((midOrders + 1) / 1000) - 1
]?.id;

const tunnelRows = `select tunnels.*, nodes.name, users.phone, tt.traffic_in, pc.cur_conns from tunnels inner join nodes on nodes.node_id = tunnels.node_id left join users on users.uid = tunnels.uid left join tunnel_traffic tt on tt.tun_id = tunnels.tun_id and tt.day = '${today}' left join proxy_counters pc on pc.tun_id = tunnels.tun_id and pc.node_id = tunnels.node_id`;

const queries: Record<string, string> = {
  "overview: today's traffic": `select sum(traffic_in + traffic_out), count(*) from tunnel_traffic where day = '${today}'`,
  "overview: tunnels by status": "select status, count(*) from tunnels group by status",
  "dashChart / user traffic: a customer's days": `select day, sum(traffic_in), sum(traffic_out) from tunnel_traffic where uid = 2 and day >= '${monthAgo}' and day <= '${today}' group by day`,
  "user traffic: a customer's rows": `select tun_id, day, traffic_in, traffic_out from tunnel_traffic where uid = 2 and day >= '${monthAgo}' and day <= '${today}' order by day, tun_id`,
  "flow: a week by user": `select uid, sum(traffic_in), sum(traffic_out) from tunnel_traffic where day >= '${weekAgo}' and day <= '${today}' group by uid order by sum(traffic_in + traffic_out) desc, uid limit 20`,
  "orders: type+status page": "select * from orders where type = 2 and status = 1 order by id desc limit 20",
  "orders: type+status count": "select count(*) from orders where type = 2 and status = 1",
  "orders: refunded page": "select * from orders where status = -2 order by id desc limit 20",
  "tunnels: count, list joins (before)": `select count(*) from tunnels inner join nodes on nodes.node_id = tunnels.node_id left join users on users.uid = tunnels.uid left join tunnel_traffic tt on tt.tun_id = tunnels.tun_id and tt.day = '${today}' left join proxy_counters pc on pc.tun_id = tunnels.tun_id and pc.node_id = tunnels.node_id where tunnels.status = 3`,
  "tunnels: count, node and owner only (after)":
    "select count(*) from tunnels inner join nodes on nodes.node_id = tunnels.node_id left join users on users.uid = tunnels.uid where tunnels.status = 3",
  "conns: count with joins (before)":
    "select count(*) from tunnel_conns c left join tunnels on tunnels.tun_id = c.tun_id left join nodes on nodes.node_id = c.node_id",
  "conns: count alone (after)": "select count(*) from tunnel_conns c",
  "overview: revenue of a day (must stay on orders_paid_at)": `select sum(case when type = 1 then 0 else amount end) from orders where paid_at >= '${today}T00:00:00Z' and paid_at < '${today}T23:59:59Z' and status in (1, -2)`,
  "orders: refunded count": "select count(*) from orders where status = -2",
  "tunnels: locked, count":
    "select count(*) from tunnels inner join nodes on nodes.node_id = tunnels.node_id where tunnels.status = 3",
  "tunnels: locked, page": `${tunnelRows} where tunnels.status = 3 order by tunnels.tun_id desc limit 20`,
  "tunnels: node+status+protocol, count":
    "select count(*) from tunnels inner join nodes on nodes.node_id = tunnels.node_id where tunnels.node_id = 3 and tunnels.protocol = 'tcp' and tunnels.status = 1",
  "tunnels: a heavy customer's page": `${tunnelRows} where tunnels.uid = 2 and tunnels.status <> -1 order by tunnels.tun_id desc limit 10`,
  "tunnels: every live one, page": `${tunnelRows} where tunnels.status <> -1 order by tunnels.tun_id desc limit 20`,
  "conns: live proxies": `select pc.*, tunnels.tun_name, nodes.name from proxy_counters pc left join tunnels on tunnels.tun_id = pc.tun_id left join nodes on nodes.node_id = pc.node_id where pc.cur_conns > 0 order by pc.cur_conns desc limit 100`,
  "users: date range, page (before)": `select * from users where created_at >= '${monthAgo}' and created_at < '${today}' order by uid desc limit 20`,
  "users: date range, page from the index (after)": `select * from users where uid in (select uid from users where created_at >= '${monthAgo}' and created_at < '${today}' order by uid desc limit 20) order by uid desc`,
  "users: phone contains, page (scan)": `select * from users where phone like '%${part}%' order by uid desc limit 20`,
  "users: phone contains, page (trigram index)": isPg
    ? `select * from users where phone ilike '%${part}%' order by uid desc limit 20`
    : `select * from users where uid in (select rowid from users_phone_fts where phone like '%${part}%') and phone like '%${part}%' order by uid desc limit 20`,
  "tunnels: middle page, joined rows (before)": `${tunnelRows} where tunnels.status <> -1 order by tunnels.tun_id desc limit 20 offset ${midTunnels}`,
  "tunnels: middle page, ids first (after)": `${tunnelRows} where tunnels.tun_id in (select tunnels.tun_id from tunnels inner join nodes on nodes.node_id = tunnels.node_id where tunnels.status <> -1 order by tunnels.tun_id desc limit 20 offset ${midTunnels}) order by tunnels.tun_id desc`,
  "orders: middle page, joined rows (before)": `select orders.*, plans.name, users.phone from orders left join plans on plans.id = orders.plan_id left join users on users.uid = orders.uid order by orders.id desc limit 20 offset ${midOrders}`,
  "orders: middle page, ids first (after)": `select orders.*, plans.name, users.phone from orders left join plans on plans.id = orders.plan_id left join users on users.uid = orders.uid where orders.id in (select id from orders order by id desc limit 20 offset ${midOrders}) order by orders.id desc`,
  // pageIds (apps/server/src/shared/paging.ts): the anchors down to the middle, once, then the page below one.
  "orders: anchors to the middle (4th round)": anchors(
    "select orders.id from orders where orders.id < page_anchors.id",
    midOrders,
  ),
  "orders: middle page below its anchor (4th round)": `select id from orders where id <= ${midAnchor} order by id desc limit 20 offset ${midOrders - (Math.floor((midOrders + 1) / 1000) * 1000 - 1)}`,
  "tunnels: anchors to the middle (4th round)": anchors(
    "select tunnels.tun_id from tunnels inner join nodes on nodes.node_id = tunnels.node_id where tunnels.status <> -1 and tunnels.tun_id < page_anchors.id",
    midTunnels,
    "tunnels.tun_id",
  ),
  "users: count": "select count(*) from users",
};

const plans: Record<string, { plan: string[]; ms: number }> = {};
/** SCALE_EXPLAIN_ONLY=prefix,… prints only the queries whose names start so. */
const only = (process.env.SCALE_EXPLAIN_ONLY ?? "").split(",").filter(Boolean);
for (const [name, q] of Object.entries(queries)) {
  if (only.length && !only.some((o) => name.startsWith(o))) continue;
  const rows = await all(`${isPg ? "explain" : "explain query plan"} ${q}`);
  const plan = rows.map((r) => String(r.detail ?? r["QUERY PLAN"]));
  const t0 = performance.now();
  await all(q);
  plans[name] = { plan, ms: Number((performance.now() - t0).toFixed(1)) };
  console.log(`\n-- ${name} (${plans[name].ms} ms)\n${q}\n${plan.join("\n")}`);
}
await client?.end();
lite?.close();
