import type { ViewInfo } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { type Figure, memoFigures, readFigures } from "../../shared/figures";
import { largeMemo } from "../../shared/large-memo";
import { verifiedUsersFigure, waitingCounters } from "../../shared/overview-counters";
import { addDays, shanghaiDate, shanghaiDayStart } from "../../shared/time";
import { nodeStatusSummary } from "../nodes/stats";
import { revenueFigures, revenueTotals } from "../orders/stats";
import { trafficByDay, trafficOfDay, tunnelCounts } from "../tunnels/stats";
import { bannedUsers, signupsBetween } from "../users/stats";

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
  (await readFigures(db, { n: signupsBetween(db, from, to) })).n;

/** A Shanghai day's money and sign-ups as figures (read with others in one statement). */
function dayFigures(db: Kysely<DB>, day: string) {
  const from = shanghaiDayStart(day).toISOString();
  const to = shanghaiDayStart(addDays(day, 1)).toISOString();
  return { ...revenueFigures(db, from, to), signups: signupsBetween(db, from, to) };
}

/** The day's figures from dayFigures' values and its traffic. */
const dayOf = (f: Record<"paid" | "recharge" | "refunded" | "signups", number>, traffic: number): DayFigures => {
  const money = revenueTotals(f);
  return { revenue: money.revenue, recharge: money.recharge, traffic, signups: f.signups };
};

/** The figures of the Shanghai days [first, last], with traffic given. */
async function computeDays(
  db: Kysely<DB>,
  days: string[],
  traffic: Map<string, number>,
): Promise<Map<string, DayFigures>> {
  const out = new Map<string, DayFigures>();
  await Promise.all(
    days.map(async (d) => out.set(d, dayOf(await readFigures(db, dayFigures(db, d)), traffic.get(d) ?? 0))),
  );
  return out;
}

/**
 * Per database, what a day's overview needs built once a day: the 30 days before it, and today's
 * money and sign-ups as figures (the same every call until midnight).
 */
const dayPlans = new WeakMap<Kysely<DB>, { today: string; past: string[]; figures: ReturnType<typeof dayFigures> }>();

function planDay(db: Kysely<DB>, today: string) {
  let plan = dayPlans.get(db);
  if (plan?.today !== today) {
    const past = Array.from({ length: 30 }, (_, i) => addDays(today, i - 30));
    plan = { today, past, figures: dayFigures(db, today) };
    dayPlans.set(db, plan);
  }
  return plan;
}

/** The 30 days before today, from the cache, computing what is missing (and dropping what fell out). */
async function pastDays(db: Kysely<DB>, today: string, days: string[]): Promise<Map<string, DayFigures>> {
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

/** The operator's overview (/admin/view), its waiting queues those the viewer's role may open. */
export async function viewInfo(ctx: AppContext, role: number): Promise<ViewInfo> {
  const db = ctx.db;
  const today = shanghaiDate();
  const counters = waitingCounters(ctx, role);
  // The counts, each a few seconds old at most once it counts thousands of rows and exact below
  // (memoFigures), and today's money and sign-ups, live: one statement.
  const verified = verifiedUsersFigure(ctx);
  const counted: Record<string, () => Figure> = {
    banned: () => bannedUsers(db),
    ...(verified && { verified: () => verified }),
    ...Object.fromEntries(counters.map((c) => [`waiting:${c.key}`, () => c.count(db)])),
  };
  const plan = planDay(db, today);
  const [before, figures, tunnels, nodes, past, trafficToday] = await Promise.all([
    usersBeforeDay(db, today),
    memoFigures(db, `overview:${counters.map((c) => c.key).join(",")}`, counted, plan.figures, today),
    // Sums over every tunnel: a few seconds old at most once large (shared/large-memo.ts).
    largeMemo(
      db,
      "overview:tunnels",
      (read) => tunnelCounts(db, read),
      (c) => c.total,
    ),
    nodeStatusSummary(db),
    pastDays(db, today, plan.past),
    largeMemo(
      db,
      `overview:traffic:${today}`,
      (read) => trafficOfDay(db, today, read),
      (t) => t.rows,
    ),
  ]);
  const todayFigures = dayOf(figures, trafficToday.bytes);
  const waiting = counters.map((c) => ({
    key: c.key,
    label: c.label,
    path: c.path,
    count: figures[`waiting:${c.key}`],
  }));
  const monthStart = `${today.slice(0, 8)}01`;
  const month = { revenue: todayFigures.revenue, recharge: todayFigures.recharge, traffic: todayFigures.traffic };
  for (const [d, f] of past)
    if (d >= monthStart) {
      month.revenue += f.revenue;
      month.recharge += f.recharge;
      month.traffic += f.traffic;
    }
  const daily = [...plan.past.slice(1), today].map((date) => {
    const f = date === today ? todayFigures : (past.get(date) ?? { revenue: 0, recharge: 0, traffic: 0, signups: 0 });
    return { date, ...f };
  });
  return {
    users_total: before + todayFigures.signups,
    users_today: todayFigures.signups,
    users_banned: figures.banned,
    users_verified: figures.verified ?? 0,
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
