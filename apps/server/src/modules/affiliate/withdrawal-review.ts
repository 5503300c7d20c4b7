/** Operators' side of withdrawals: the list with each customer's signals, and the decision. */
import {
  type AdminWithdrawalQuery,
  type AdminWithdrawalRow,
  type AffApproveBody,
  type Paged,
  WithdrawalStatus,
} from "@burrow/contract";
import type { AppContext } from "../../context";
import type { Operator } from "../../shared/actor";
import { notFound, refused } from "../../shared/errors";
import { lockUser } from "../../shared/locks";
import { countRows, pageOf } from "../../shared/paging";
import { extend } from "../../shared/rows";
import { audit } from "../audit/audit";
import { shownPhonesOf } from "../users/users.repository";
import { identitiesOf, payeeChecker } from "../verify/identity";
import { totalsOf } from "./affiliate.repository";
import type { AffWithdrawalRow } from "./affiliate.table";
import { signalsOf } from "./signals";
import { presentWithdrawal } from "./withdrawals";

async function presentAdmin(ctx: AppContext, rows: AffWithdrawalRow[]): Promise<AdminWithdrawalRow[]> {
  const uids = [...new Set(rows.map((r) => r.uid))];
  const [phones, totals, ids, check] = await Promise.all([
    shownPhonesOf(ctx.db, uids),
    Promise.all(uids.map(async (u) => [u, await totalsOf(ctx.db, u)] as const)),
    identitiesOf(ctx.db, uids),
    payeeChecker(ctx),
  ]);
  const signals = new Map(
    await Promise.all(uids.map(async (u) => [u, await signalsOf(ctx.db, u, ids.get(u))] as const)),
  );
  const available = new Map(totals.map(([u, t]) => [u, t.available]));
  return rows.map((r) => {
    const me = ids.get(r.uid);
    const payee = r.method === "balance" ? null : check(me, r.account_name ?? "");
    return extend(presentWithdrawal(r, true), {
      uid: r.uid,
      phone: phones.get(r.uid) ?? "",
      available: available.get(r.uid) ?? 0,
      operator_uid: r.operator_uid,
      verified_name: me?.verified ? me.name_masked : null,
      name_matches: r.method === "balance" || !me ? null : (payee?.matches ?? false),
      name_check: payee?.basis ?? null,
      signals: signals.get(r.uid) ?? [],
    });
  });
}

/** GET /super/aff/list */
export async function adminListWithdrawals(
  ctx: AppContext,
  q: AdminWithdrawalQuery,
): Promise<Paged<AdminWithdrawalRow>> {
  let base = ctx.db.selectFrom("aff_withdrawals");
  if (q.status) base = base.where("status", "=", q.status);
  if (q.uid) base = base.where("uid", "=", q.uid);
  if (q.method) base = base.where("method", "=", q.method);
  if (q.id) base = base.where("id", "=", q.id);
  if (q.account) base = base.where("account", "=", q.account.replace(/\s/g, ""));
  return pageOf(
    q.page,
    q.size,
    async (limit, offset) =>
      presentAdmin(ctx, await base.selectAll().orderBy("id", "desc").limit(limit).offset(offset).execute()),
    () => countRows(base),
  );
}

/**
 * POST /super/aff/approve: a processing request moves to done (with the payout reference) or to
 * rejected (with the reason; its amount counts as available again, since only done and
 * processing requests are subtracted). A conditional update decides: of two concurrent actions
 * on one request exactly one acts, the other is refused.
 */
export async function adminDecideWithdrawal(
  ctx: AppContext,
  operator: Operator,
  body: AffApproveBody,
): Promise<AdminWithdrawalRow> {
  await ctx.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("aff_withdrawals").selectAll().where("id", "=", body.id).executeTakeFirst();
    if (!row) throw notFound("提现申请");
    await lockUser(trx, row.uid);
    const approve = body.action === "approve";
    const r = await trx
      .updateTable("aff_withdrawals")
      .set({
        status: approve ? WithdrawalStatus.Done : WithdrawalStatus.Rejected,
        payout_ref: approve ? (body.payout_ref ?? null) : null,
        reason: approve ? null : (body.reason ?? null),
        operator_uid: operator.uid,
        handled_at: new Date().toISOString(),
      })
      .where("id", "=", body.id)
      .where("status", "=", WithdrawalStatus.Processing)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw refused("该提现申请已处理，不能重复操作");
    await audit(trx, {
      operatorUid: operator.uid,
      action: `aff.withdraw.${body.action}`,
      target: `withdrawal:${row.id}`,
      detail: {
        uid: row.uid,
        amount: Number(row.amount),
        method: row.method,
        ...(approve ? { payout_ref: body.payout_ref } : { reason: body.reason }),
      },
      ip: operator.ip,
    });
  });
  const row = await ctx.db
    .selectFrom("aff_withdrawals")
    .selectAll()
    .where("id", "=", body.id)
    .executeTakeFirstOrThrow();
  return (await presentAdmin(ctx, [row]))[0];
}
