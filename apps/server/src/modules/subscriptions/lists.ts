/** Lists of subscriptions: the customer's own with their limits, and the operators' registrations. */
import {
  type Paged,
  type PlanLimitsInfo,
  type PlanRegQuery,
  type PlanRegRow,
  type SubscriptionList,
  type SubscriptionQuery,
  SubscriptionStatus,
} from "@burrow/contract";
import { type ExpressionBuilder, sql } from "kysely";
import type { AppContext } from "../../context";
import { isPostgres } from "../../db/dialect";
import type { DB } from "../../db/schema";
import { countRows, pageIds, pageOf } from "../../shared/paging";
import { extend } from "../../shared/rows";
import { shownPhone } from "../users/users.presenter";
import { getPlanLimits } from "./quota";
import { presentSubscriptionRow, type SubscriptionViewRow, subscriptionViewQuery } from "./subscriptions.presenter";

/** Live first (in use, over quota), then the rest; newest first within each. */
const liveFirst = sql<number>`case when subscriptions.status in (${SubscriptionStatus.InUse}, ${SubscriptionStatus.OverQuota}) then 0 else 1 end`;

/**
 * The subscriptions a list asks for, as one condition: the rows and their count are both read
 * with it, so a filter cannot be applied to one and forgotten on the other.
 */
function subscriptionFilter(q: { uid?: number; trade_id?: string; kind?: number; status?: number }) {
  return (eb: ExpressionBuilder<DB, "subscriptions">) =>
    eb.and([
      ...(q.uid !== undefined ? [eb("subscriptions.uid", "=", q.uid)] : []),
      ...(q.trade_id ? [eb("subscriptions.trade_id", "=", q.trade_id)] : []),
      ...(q.kind !== undefined ? [eb("subscriptions.kind", "=", q.kind)] : []),
      ...(q.status !== undefined ? [eb("subscriptions.status", "=", q.status)] : []),
    ]);
}

/** One page of subscriptions matching `filter`, in `order`, presented, with the total. */
function subscriptionPage(
  ctx: AppContext,
  filter: ReturnType<typeof subscriptionFilter>,
  page: number,
  size: number,
  withOwner: boolean,
) {
  const filtered = ctx.db.selectFrom("subscriptions").where(filter);
  const rows = subscriptionViewQuery(ctx.db)
    .leftJoin("users", "users.uid", "subscriptions.uid")
    .select("users.phone as phone");
  return pageOf(
    page,
    size,
    async (limit, offset) =>
      // The operators' list on PostgreSQL: the page's ids, then their joined rows (pageIds), so the
      // joined statement is planned once, not under LIMIT/OFFSET parameters on every call. SQLite
      // walks the id index with the joins as it is: there the ids first measured slower
      // (docs/performance.md, sixth round).
      withOwner && isPostgres(ctx.db)
        ? rows
            .where(await pageIds(ctx.db, filtered, "subscriptions.id", limit, offset))
            .orderBy("subscriptions.id", "desc")
            .execute()
        : rows
            .where(filter)
            .$if(!withOwner, (qb) => qb.orderBy(liveFirst))
            .orderBy("subscriptions.id", "desc")
            .limit(limit)
            .offset(offset)
            .execute(),
    () => countRows(filtered, withOwner ? ctx.db : undefined),
  );
}

/** GET /user/subscription: my plans and traffic packs with traffic used/left, and my limits now. */
export async function listMySubscriptions(
  ctx: AppContext,
  uid: number,
  q: SubscriptionQuery,
): Promise<SubscriptionList> {
  const now = new Date();
  const [page, limits] = await Promise.all([
    subscriptionPage(ctx, subscriptionFilter({ uid, kind: q.kind, status: q.status }), q.page, q.size, false),
    getPlanLimits(ctx.db, uid),
  ]);
  const info: PlanLimitsInfo | null = limits && {
    plan_id: limits.plan_id,
    plan_name: limits.plan_name,
    level: limits.level,
    bandwidth: limits.bandwidth,
    tunnel_limit: limits.tunnel_limit,
    tunnel_peer_port_limit: limits.tunnel_peer_port_limit,
    traffic_quota: limits.traffic_quota,
    traffic_used: limits.traffic_used,
    end_at: limits.end_at,
    usable: limits.usable,
    ...(limits.reason && { reason: limits.reason }),
  };
  return {
    ...page,
    list: page.list.map((r) => presentSubscriptionRow(r as SubscriptionViewRow, now)),
    limits: info,
  };
}

/** GET /super/plan/reg: every plan and pack registration (subscription), with its customer. */
export async function listPlanRegistrations(ctx: AppContext, q: PlanRegQuery): Promise<Paged<PlanRegRow>> {
  const filter = subscriptionFilter({ uid: q.user_id, trade_id: q.local_trade_id, kind: q.kind, status: q.status });
  const page = await subscriptionPage(ctx, filter, q.page, q.size, true);
  const now = new Date();
  return {
    ...page,
    list: page.list.map((r) =>
      extend(presentSubscriptionRow(r as SubscriptionViewRow, now), { uid: r.uid, phone: shownPhone(r.phone) }),
    ),
  };
}
