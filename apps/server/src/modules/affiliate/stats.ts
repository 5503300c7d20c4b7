/** The customer's programme page: invitations, rebate totals and the last 30 days, and the rebate list. */
import {
  type AffDay,
  type AffSummary,
  invitePath,
  type Paged,
  type RebateQuery,
  type RebateRow,
  RebateState,
} from "@burrow/contract";
import { sql } from "kysely";
import type { AppContext } from "../../context";
import { notFound } from "../../shared/errors";
import { countRows, pageOf } from "../../shared/paging";
import { addDays, shanghaiDate, shanghaiDayStart } from "../../shared/time";
import { countPaidOrdersOf } from "../orders/stats";
import { findUserByUid, listInvitees } from "../users/users.repository";
import { identitiesOf, type VerifiedIdentity } from "../verify/identity";
import { findExternalProcessing, num, totalsOf } from "./affiliate.repository";
import { affSetting, releaseDue } from "./affiliate.service";
import type { AffRebateRow } from "./affiliate.table";

/** GET /user/aff */
export async function affSummary(ctx: AppContext, uid: number, now = new Date()): Promise<AffSummary> {
  const user = await findUserByUid(ctx.db, uid);
  if (!user) throw notFound("用户");
  const today = shanghaiDate(now);
  const first = addDays(today, -29);
  const since = shanghaiDayStart(first).toISOString();
  await releaseDue(ctx.db, now, uid);
  const [invitees, totals, setting, recent, external, waiting, identity] = await Promise.all([
    listInvitees(ctx.db, uid),
    totalsOf(ctx.db, uid),
    affSetting(ctx.db),
    ctx.db
      .selectFrom("aff_rebates")
      .select(["amount", "created_at"])
      .where("uid", "=", uid)
      .where("created_at", ">=", since)
      .execute(),
    findExternalProcessing(ctx.db, uid),
    // Due but still pending after releaseDue: waiting for the invitee's verified identity.
    ctx.db
      .selectFrom("aff_rebates")
      .select(sql<string>`sum(amount - reversed)`.as("n"))
      .where("uid", "=", uid)
      .where("state", "=", RebateState.Pending)
      .where("release_at", "<=", now.toISOString())
      .executeTakeFirstOrThrow(),
    identitiesOf(ctx.db, [uid]),
  ]);
  const me = identity.get(uid);
  const days: AffDay[] = Array.from({ length: 30 }, (_, i) => ({ date: addDays(first, i), rebate: 0, invited: 0 }));
  const byDate = new Map(days.map((d) => [d.date, d]));
  for (const r of recent) {
    const d = byDate.get(shanghaiDate(r.created_at));
    if (d) d.rebate += Number(r.amount);
  }
  for (const i of invitees) {
    const d = byDate.get(shanghaiDate(i.created_at));
    if (d) d.invited += 1;
  }
  return {
    invite_code: user.invite_code,
    invite_path: invitePath(user.invite_code),
    invited_count: invitees.length,
    paid_orders: await countPaidOrdersOf(
      ctx.db,
      invitees.map((i) => i.uid),
    ),
    ...totals,
    external_processing: !!external,
    waiting_verification: num(waiting.n),
    verified_name: me?.verified ? me.name_masked : null,
    setting,
    days,
  };
}

/** Why a pending rebate waits beyond its holding period, from the invitee's and the inviter's identities. */
function pendingReason(r: AffRebateRow, ids: Map<number, VerifiedIdentity>): string | null {
  if (r.state !== RebateState.Pending) return null;
  const invitee = ids.get(r.invitee_uid);
  if (!invitee?.verified) return "等待被邀请人完成实名认证";
  if (invitee.id_hash === ids.get(r.uid)?.id_hash) return "被邀请人与你的实名身份相同，不予结算";
  return null;
}

const presentRebate = (r: AffRebateRow, ids: Map<number, VerifiedIdentity>): RebateRow => ({
  id: r.id,
  trade_id: r.trade_id,
  order_type: r.order_type,
  order_amount: Number(r.order_amount),
  invitee: r.invitee_phone,
  rate_bp: r.rate_bp,
  amount: Number(r.amount),
  reversed: Number(r.reversed),
  state: r.state,
  release_at: r.release_at,
  released_at: r.released_at,
  created_at: r.created_at,
  pending_reason: pendingReason(r, ids),
});

/** GET /user/aff/rebate: only the caller's rows. */
export async function listRebates(ctx: AppContext, uid: number, q: RebateQuery): Promise<Paged<RebateRow>> {
  await releaseDue(ctx.db, new Date(), uid);
  let base = ctx.db.selectFrom("aff_rebates").where("uid", "=", uid);
  if (q.state) base = base.where("state", "=", q.state);
  return pageOf(
    q.page,
    q.size,
    async (limit, offset) => {
      const rows = await base.selectAll().orderBy("id", "desc").limit(limit).offset(offset).execute();
      const ids = await identitiesOf(ctx.db, [uid, ...rows.map((r) => r.invitee_uid)]);
      return rows.map((r) => presentRebate(r, ids));
    },
    () => countRows(base),
  );
}
