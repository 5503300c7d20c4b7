/** A customer's withdrawals of their available rebate: to the balance at once, or paid out by an operator. */
import {
  fenToYuan,
  type Paged,
  type WithdrawalQuery,
  type WithdrawalRow,
  WithdrawalStatus,
  type WithdrawBody,
  type WithdrawMethod,
} from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { invalid, refused } from "../../shared/errors";
import { lockUser } from "../../shared/locks";
import { pageOfQuery } from "../../shared/paging";
import { transact } from "../../shared/tx";
import { changeBalance } from "../users/balance";
import { maskPhone } from "../users/users.presenter";
import { identitiesOf, type PayeeCheck, payeeChecker, type VerifiedIdentity } from "../verify/identity";
import { findExternalProcessing, totalsOf } from "./affiliate.repository";
import { affSetting, releaseDue } from "./affiliate.service";
import type { AffWithdrawalRow } from "./affiliate.table";

/** What the customer sees of an external account: enough to recognise it. */
function maskAccount(method: string, account: string | null): string | null {
  if (!account) return null;
  if (method === "bank") return `**** ${account.slice(-4)}`;
  const at = account.indexOf("@");
  if (at > 0) return `${account.slice(0, Math.min(3, at))}***${account.slice(at)}`;
  return account.length > 7 ? maskPhone(account) : account;
}

export const presentWithdrawal = (w: AffWithdrawalRow, full = false): WithdrawalRow => ({
  id: w.id,
  amount: Number(w.amount),
  method: w.method as WithdrawMethod,
  account: full ? w.account : maskAccount(w.method, w.account),
  account_name: w.account_name,
  bank_name: w.bank_name,
  status: w.status,
  payout_ref: w.payout_ref,
  reason: w.reason,
  created_at: w.created_at,
  handled_at: w.handled_at,
});

/** GET /user/aff/withdraw: only the caller's rows. */
export async function listMyWithdrawals(
  ctx: AppContext,
  uid: number,
  q: WithdrawalQuery,
): Promise<Paged<WithdrawalRow>> {
  let base = ctx.db.selectFrom("aff_withdrawals").where("uid", "=", uid);
  if (q.status) base = base.where("status", "=", q.status);
  return pageOfQuery(q, base, (s) => s.selectAll().orderBy("id", "desc"), presentWithdrawal);
}

/**
 * Money leaves Burrow only to the verified person: an external withdrawal needs the customer's
 * done verification, and the payee name must be the verified name — the full name, by its keyed
 * hash, or for a verification done before those were kept only its masked form (verify/identity.ts).
 * Call under the customer's lock (verifications change under it).
 */
async function requireVerifiedPayee(
  db: Kysely<DB>,
  uid: number,
  payee: string,
  check: (me: VerifiedIdentity | undefined, payee: string) => PayeeCheck | null,
): Promise<void> {
  const me = (await identitiesOf(db, [uid])).get(uid);
  const payeeCheck = check(me, payee);
  if (!me || !payeeCheck) throw refused("提现到支付宝或银行卡前，请先完成实名认证（账户 → 实名认证）");
  if (!payeeCheck.matches) throw invalid("account_name", `收款人姓名须与实名认证姓名（${me.name_masked}）一致`);
}

/**
 * POST /user/aff/withdraw. Under the customer's lock the available rebate is computed from the
 * rows and the request is recorded in the same transaction, so concurrent requests never take
 * more than is available, and at most one external request is processing. To the balance: done at
 * once, one ledger entry. External: processing until an operator pays it out or rejects it.
 */
export async function withdraw(ctx: AppContext, uid: number, body: WithdrawBody): Promise<WithdrawalRow> {
  const setting = await affSetting(ctx.db);
  if (body.amount < setting.min_withdraw)
    throw invalid("amount", `最低提现金额为 ${fenToYuan(setting.min_withdraw)} 元`);
  const external = body.method !== "balance";
  // Outside the transaction: the hash secret may be read (or generated) from settings.
  const check = external ? await payeeChecker(ctx) : null;
  const id = await transact(ctx, async (trx) => {
    await lockUser(trx, uid);
    if (check) await requireVerifiedPayee(trx, uid, body.account_name ?? "", check);
    await releaseDue(trx, new Date(), uid);
    const totals = await totalsOf(trx, uid);
    if (body.amount > totals.available)
      throw refused(`可提现返利不足：当前可提现 ${fenToYuan(Math.max(0, totals.available))} 元`);
    if (external) {
      const waiting = await findExternalProcessing(trx, uid);
      if (waiting) throw refused("已有一笔提现正在处理中，处理完成后才能再次申请");
    }
    const now = new Date().toISOString();
    const row = await trx
      .insertInto("aff_withdrawals")
      .values({
        uid,
        amount: body.amount,
        method: body.method,
        account: external ? (body.account ?? "").replace(/\s/g, "") : null,
        account_name: external ? (body.account_name ?? null) : null,
        bank_name: body.method === "bank" ? (body.bank_name ?? null) : null,
        status: external ? WithdrawalStatus.Processing : WithdrawalStatus.Done,
        created_at: now,
        handled_at: external ? null : now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (!external) await changeBalance(trx, { uid, change: body.amount, reason: `推广返利提现到余额（#${row.id}）` });
    return row.id;
  });
  const row = await ctx.db.selectFrom("aff_withdrawals").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  return presentWithdrawal(row);
}
