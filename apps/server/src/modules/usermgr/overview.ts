import { UserStatus, type ViewInfo } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { largeMemo } from "../../shared/large-memo";
import { verifiedUserCount, waitingCounts } from "../../shared/overview-counters";
import { addDays, shanghaiDate, shanghaiDayStart } from "../../shared/time";
import { nodeStatusSummary } from "../nodes/stats";
import { revenueBetween } from "../orders/stats";
import { trafficByDay, trafficOfDay, tunnelCounts } from "../tunnels/stats";

interface DayFigures {
  revenue: number;
  recharge: number;
  traffic: number;
  signups: number;
}

/**
 * Finished days' figures per database. A day that has ended never changes (orders count by paid_at,
 * refunds by refunded_at, traffic by the poller's day, sign-ups by created_at, all "now" when
 * written), so each process computes a past day once; only today is read live. This is what keeps
 * /super/viewInfo within its 20 ms on a large database.
 */
const finished = new WeakMap<Kysely<DB>, Map<string, DayFigures>>();
/**
 * Users who signed up before a day began, per database: users are never deleted, so the total is
 * this (counted once a day) plus today's sign-ups, instead of a count over the whole table per call.
 */
const usersBefore = new WeakMap<Kysely<DB>, { day: string; n: number }>();

async function usersBeforeDay(db: Kysely<DB>, day: string): Promise<number> {
  const hit = usersBefore.get(db);
  if (hit?.day === day) return hit.n;
  const n = await countUsers(db, "", shanghaiDayStart(day).toISOString());
  usersBefore.set(db, { day, n });
  return n;
}

const countUsers = async (db: Kysely<DB>, from: string, to: string) =>
  Number(
    (
      await db
        .selectFrom("users")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("created_at", ">=", from)
        .where("created_at", "<", to)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** The figures of the Shanghai days [first, last], with traffic given. */
async function computeDays(
  db: Kysely<DB>,
  days: string[],
  traffic: Map<string, number>,
): Promise<Map<string, DayFigures>> {
  const out = new Map<string, DayFigures>();
  await Promise.all(
    days.map(async (d) => {
      const from = shanghaiDayStart(d).toISOString();
      const to = shanghaiDayStart(addDays(d, 1)).toISOString();
      const [money, signups] = await Promise.all([revenueBetween(db, from, to), countUsers(db, from, to)]);
      out.set(d, { revenue: money.revenue, recharge: money.recharge, traffic: traffic.get(d) ?? 0, signups });
    }),
  );
  return out;
}

/** The 30 days before today, from the cache, computing what is missing (and dropping what fell out). */
async function pastDays(db: Kysely<DB>, today: string): Promise<Map<string, DayFigures>> {
  const days = Array.from({ length: 30 }, (_, i) => addDays(today, i - 30));
  let cache = finished.get(db);
  if (!cache) {
    cache = new Map();
    finished.set(db, cache);
  }
  for (const d of cache.keys()) if (d < days[0] || d >= today) cache.delete(d);
  const missing = days.filter((d) => !cache.has(d));
  if (missing.length) {
    const traffic = await trafficByDay(db, missing[0], missing[missing.length - 1]);
    for (const [d, f] of await computeDays(db, missing, traffic)) cache.set(d, f);
  }
  return cache;
}

/** The operator's overview (/admin/view). */
export async function viewInfo(ctx: AppContext): Promise<ViewInfo> {
  const db = ctx.db;
  const today = shanghaiDate();
  const users = db.selectFrom("users");
  const count = (q: typeof users) =>
    q
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  const [before, banned, verified, tunnels, nodes, waiting, past, now] = await Promise.all([
    usersBeforeDay(db, today),
    count(users.where("status", "=", UserStatus.Banned)),
    verifiedUserCount(ctx),
    // Sums over every tunnel: a few seconds old at most once large (shared/large-memo.ts).
    largeMemo(
      db,
      "overview:tunnels",
      () => tunnelCounts(db),
      (c) => c.total,
    ),
    nodeStatusSummary(db),
    waitingCounts(ctx),
    pastDays(db, today),
    largeMemo(
      db,
      `overview:traffic:${today}`,
      () => trafficOfDay(db, today),
      (t) => t.rows,
    ).then(async (t) => (await computeDays(db, [today], new Map([[today, t.bytes]]))).get(today)),
  ]);
  const todayFigures = now ?? { revenue: 0, recharge: 0, traffic: 0, signups: 0 };
  const monthStart = `${today.slice(0, 8)}01`;
  const month = { revenue: todayFigures.revenue, recharge: todayFigures.recharge, traffic: todayFigures.traffic };
  for (const [d, f] of past)
    if (d >= monthStart) {
      month.revenue += f.revenue;
      month.recharge += f.recharge;
      month.traffic += f.traffic;
    }
  const daily = Array.from({ length: 30 }, (_, i) => {
    const date = addDays(today, i - 29);
    const f = date === today ? todayFigures : (past.get(date) ?? { revenue: 0, recharge: 0, traffic: 0, signups: 0 });
    return { date, ...f };
  });
  return {
    users_total: before + todayFigures.signups,
    users_today: todayFigures.signups,
    users_banned: banned,
    users_verified: verified,
    signups: daily.map((d) => ({ date: d.date, count: d.signups })),
    tunnels,
    nodes,
    traffic: { today: todayFigures.traffic, month: month.traffic },
    revenue: {
      today: todayFigures.revenue,
      month: month.revenue,
      today_recharge: todayFigures.recharge,
      month_recharge: month.recharge,
    },
    waiting,
    daily,
  };
}
