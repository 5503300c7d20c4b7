import { randomInt } from "node:crypto";
import { type CheckInResult, type DashChart, type DashData, TunnelStatus } from "@burrow/contract";
import type { AppContext } from "../../context";
import { isUniqueViolation } from "../../db/errors";
import { notFound, refused } from "../../shared/errors";
import { addDays, nowIso, shanghaiDate } from "../../shared/time";
import { transact } from "../../shared/tx";
import { getPlanLimits } from "../subscriptions/quota";
import { grantBonusTraffic } from "../subscriptions/subscriptions.service";

const MB = 1024 * 1024;

/** Consecutive check-in days ending today, or yesterday when today's is still to come. */
async function checkinStreak(ctx: AppContext, uid: number): Promise<{ today: boolean; streak: number }> {
  const today = shanghaiDate();
  const days = new Set(
    (
      await ctx.db
        .selectFrom("checkins")
        .select("day")
        .where("uid", "=", uid)
        .where("day", ">=", addDays(today, -366))
        .execute()
    ).map((r) => r.day),
  );
  let d = days.has(today) ? today : addDays(today, -1);
  let streak = 0;
  while (days.has(d)) {
    streak++;
    d = addDays(d, -1);
  }
  return { today: days.has(today), streak };
}

export async function dashData(ctx: AppContext, uid: number): Promise<DashData> {
  const today = shanghaiDate();
  // The figures in one statement of scalar subqueries: on PostgreSQL each statement is a round
  // trip that wakes the server (seven statements a call were most of its cost: docs/performance.md, third round).
  const [user, limits, checkin] = await Promise.all([
    ctx.db
      .selectFrom("users")
      .where("users.uid", "=", uid)
      .select((eb) => {
        const tunnels = (status?: number) =>
          eb
            .selectFrom("tunnels")
            .where("tunnels.uid", "=", uid)
            .where("tunnels.status", "!=", TunnelStatus.Deleted)
            .$if(status !== undefined, (q) => q.where("tunnels.status", "=", status as number))
            .select(eb.fn.countAll<number | string>().as("n"));
        const todays = (col: "traffic_in" | "traffic_out") =>
          eb
            .selectFrom("tunnel_traffic")
            .where("tunnel_traffic.uid", "=", uid)
            .where("tunnel_traffic.day", "=", today)
            .select((sub) => sub.fn.coalesce(sub.fn.sum<number | string>(`tunnel_traffic.${col}`), sub.lit(0)).as("n"));
        return [
          "users.balance",
          tunnels().as("tunnels_total"),
          tunnels(TunnelStatus.Connected).as("tunnels_online"),
          tunnels(TunnelStatus.Locked).as("tunnels_locked"),
          todays("traffic_in").as("today_in"),
          todays("traffic_out").as("today_out"),
          eb
            .selectFrom("checkins")
            .where("checkins.uid", "=", uid)
            .select((sub) => sub.fn.coalesce(sub.fn.sum<number | string>("checkins.bonus_bytes"), sub.lit(0)).as("n"))
            .as("total_bonus"),
        ];
      })
      .executeTakeFirst(),
    getPlanLimits(ctx.db, uid),
    checkinStreak(ctx, uid),
  ]);
  if (!user) throw notFound("用户");
  return {
    balance: Number(user.balance),
    plan: limits && {
      name: limits.plan_name,
      end_at: limits.end_at,
      traffic_quota: limits.traffic_quota,
      traffic_used: limits.traffic_used,
      usable: limits.usable,
      bandwidth: limits.bandwidth,
      tunnel_limit: limits.tunnel_limit,
    },
    tunnels: {
      total: Number(user.tunnels_total ?? 0),
      online: Number(user.tunnels_online ?? 0),
      locked: Number(user.tunnels_locked ?? 0),
    },
    today: { traffic_in: Number(user.today_in ?? 0), traffic_out: Number(user.today_out ?? 0) },
    checkin: { ...checkin, total_bonus: Number(user.total_bonus ?? 0) },
  };
}

export async function dashChart(ctx: AppContext, uid: number): Promise<DashChart> {
  const today = shanghaiDate();
  const first = addDays(today, -6);
  const rows = await ctx.db
    .selectFrom("tunnel_traffic")
    .select((eb) => ["day", eb.fn.sum<number>("traffic_in").as("tin"), eb.fn.sum<number>("traffic_out").as("tout")])
    .where("uid", "=", uid)
    .where("day", ">=", first)
    .groupBy("day")
    .execute();
  const byDay = new Map(rows.map((r) => [r.day, r]));
  return {
    days: Array.from({ length: 7 }, (_, i) => {
      const date = addDays(first, i);
      const r = byDay.get(date);
      return { date, traffic_in: Number(r?.tin ?? 0), traffic_out: Number(r?.tout ?? 0) };
    }),
  };
}

/**
 * Daily check-in: once per Asia/Shanghai day (the (uid, day) primary key makes a double or
 * concurrent check-in fail cleanly), adding a random traffic bonus to the current plan's quota in
 * the same transaction. A plan over quota is usable again only if the bonus covers its usage.
 */
export async function checkIn(ctx: AppContext, uid: number): Promise<CheckInResult> {
  const { CHECKIN_MIN_MB: min, CHECKIN_MAX_MB: max } = ctx.config;
  const bonus = randomInt(Math.min(min, max), Math.max(min, max) + 1) * MB;
  const day = shanghaiDate();
  try {
    await transact(ctx, async (trx) => {
      // The subscriptions module adds the traffic under the customer's lock and derives the status.
      const credited = await grantBonusTraffic(trx, uid, bonus, new Date());
      if (credited === null) throw refused("当前没有可用套餐，无法签到领取流量");
      await trx.insertInto("checkins").values({ uid, day, bonus_bytes: bonus, created_at: nowIso() }).execute();
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw refused("今天已经签到过了，明天再来吧");
    throw err;
  }
  const { streak } = await checkinStreak(ctx, uid);
  return { bonus_bytes: bonus, streak };
}
