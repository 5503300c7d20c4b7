import { randomInt } from "node:crypto";
import { type CheckInResult, type DashChart, type DashData, TunnelStatus } from "@burrow/contract";
import type { AppContext } from "../../context";
import { isUniqueViolation } from "../../http/error-handler";
import { notFound, refused } from "../../http/errors";
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
  const [user, limits, tunnels, traffic, checkin, bonus] = await Promise.all([
    ctx.db.selectFrom("users").select("balance").where("uid", "=", uid).executeTakeFirst(),
    getPlanLimits(ctx.db, uid),
    ctx.db
      .selectFrom("tunnels")
      .select(["status"])
      .where("uid", "=", uid)
      .where("status", "!=", TunnelStatus.Deleted)
      .execute(),
    ctx.db
      .selectFrom("tunnel_traffic")
      .select((eb) => [
        eb.fn.coalesce(eb.fn.sum<number>("traffic_in"), eb.lit(0)).as("traffic_in"),
        eb.fn.coalesce(eb.fn.sum<number>("traffic_out"), eb.lit(0)).as("traffic_out"),
      ])
      .where("uid", "=", uid)
      .where("day", "=", today)
      .executeTakeFirst(),
    checkinStreak(ctx, uid),
    ctx.db
      .selectFrom("checkins")
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("bonus_bytes"), eb.lit(0)).as("n"))
      .where("uid", "=", uid)
      .executeTakeFirst(),
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
      total: tunnels.length,
      online: tunnels.filter((t) => t.status === TunnelStatus.Connected).length,
      locked: tunnels.filter((t) => t.status === TunnelStatus.Locked).length,
    },
    today: { traffic_in: Number(traffic?.traffic_in ?? 0), traffic_out: Number(traffic?.traffic_out ?? 0) },
    checkin: { ...checkin, total_bonus: Number(bonus?.n ?? 0) },
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
