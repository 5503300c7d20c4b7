import {
  type AdminWithdrawalQuery,
  type AdminWithdrawalRow,
  type AffApproveBody,
  type AffDay,
  type AffSetting,
  type AffSettingBody,
  type AffSummary,
  fenToYuan,
  invitePath,
  OrderType,
  type Paged,
  PayStatus,
  type RebateQuery,
  type RebateRow,
  RebateState,
  type WithdrawalQuery,
  type WithdrawalRow,
  type WithdrawalSignal,
  WithdrawalStatus,
  type WithdrawBody,
  type WithdrawMethod,
} from "@burrow/contract";
import { type Kysely, sql } from "kysely";
import type { AppContext, OrderHook } from "../../context";
import type { DB } from "../../db/schema";
import type { Operator } from "../../shared/actor";
import { invalid, notFound, refused } from "../../shared/errors";
import type { JobDef } from "../../shared/jobs";
import { lockUser } from "../../shared/locks";
import { countRows, pageOf } from "../../shared/paging";
import { extend } from "../../shared/rows";
import { getSetting, setSetting } from "../../shared/settings";
import { addDays, DAY_MS, shanghaiDate, shanghaiDayStart } from "../../shared/time";
import { transact } from "../../shared/tx";
import { audit } from "../audit/audit";
import { orderClientIps } from "../orders/orders.repository";
import { countPaidOrdersOf } from "../orders/stats";
import { shareValueOf } from "../orders/value-sources";
import { changeBalance } from "../users/balance";
import { maskedPhone, maskPhone } from "../users/users.presenter";
import { findUserByUid, listInvitees, listLoginLogs, shownPhonesOf } from "../users/users.repository";
import { identitiesOf, type PayeeCheck, payeeChecker, type VerifiedIdentity, verifiedUids } from "../verify/identity";
import type { AffRebateRow, AffWithdrawalRow } from "./affiliate.table";

/** The settings keys and their defaults (10 %, 7 days, 10.00 yuan). */
const SETTINGS = {
  rate_bp: { key: "aff_rate_bp", fallback: 1000 },
  hold_days: { key: "aff_hold_days", fallback: 7 },
  min_withdraw: { key: "aff_min_withdraw", fallback: 1000 },
} as const;

/** Order types that earn a rebate: plans, traffic packs, renewals. Recharges never (the money is counted when spent). */
const REBATED_TYPES: number[] = [OrderType.Plan, OrderType.TrafficPack, OrderType.Renewal];

export async function affSetting(db: Kysely<DB>): Promise<AffSetting> {
  const read = async (s: { key: string; fallback: number }) => {
    const v = await getSetting(db, s.key);
    const n = v === undefined ? Number.NaN : Number(v);
    return Number.isInteger(n) ? n : s.fallback;
  };
  return {
    rate_bp: await read(SETTINGS.rate_bp),
    hold_days: await read(SETTINGS.hold_days),
    min_withdraw: await read(SETTINGS.min_withdraw),
  };
}

export async function updateAffSetting(ctx: AppContext, operator: Operator, body: AffSettingBody): Promise<AffSetting> {
  await ctx.db.transaction().execute(async (trx) => {
    const before = await affSetting(trx);
    for (const k of Object.keys(SETTINGS) as (keyof AffSetting)[])
      await setSetting(trx, SETTINGS[k].key, String(body[k]));
    await audit(trx, {
      operatorUid: operator.uid,
      action: "aff.setting",
      target: "setting:affiliate",
      detail: { before, after: body },
      ip: operator.ip,
    });
  });
  return affSetting(ctx.db);
}

// ---------------------------------------------------------------- rebates (order hooks and the release job)

/** The rebate of `fen` at `rateBp` basis points, rounded down to whole fen. */
export const rebateOf = (fen: number, rateBp: number): number => Math.floor((fen * rateBp) / 10000);

/**
 * The order hook: a paid plan, pack or renewal of an invitee whose purchase was applied earns its
 * inviter a pending rebate (one per order); a refund takes back the rebate of the refunded part —
 * from the pending rebate while it is held, from the available rebate after its release.
 */
export const affiliateOrderHook: OrderHook = {
  async paid(trx, order, now) {
    if (!REBATED_TYPES.includes(order.type)) return;
    // Credited to the balance instead (the purchase could not be applied): that money is not spent yet.
    if (order.status !== PayStatus.Paid || order.fulfilment !== "applied") return;
    const paid = Number(order.amount);
    if (paid <= 0) return;
    const invitee = await findUserByUid(trx, order.uid);
    const inviter = invitee?.referrer_uid;
    if (!invitee || !inviter || inviter === order.uid) return;
    const setting = await affSetting(trx);
    const amount = rebateOf(paid, setting.rate_bp);
    if (amount <= 0) return;
    await trx
      .insertInto("aff_rebates")
      .values({
        uid: inviter,
        invitee_uid: order.uid,
        invitee_phone: maskedPhone(invitee.phone),
        trade_id: order.trade_id,
        order_type: order.type,
        order_amount: paid,
        rate_bp: setting.rate_bp,
        amount,
        state: RebateState.Pending,
        release_at: new Date(now.getTime() + setting.hold_days * DAY_MS).toISOString(),
        created_at: now.toISOString(),
      })
      .onConflict((oc) => oc.column("trade_id").doNothing())
      .execute();
  },

  async refunded(trx, order, refunded) {
    await takeBack(trx, order.trade_id, refunded);
  },

  async valueMoved(trx, move) {
    for (const share of await shareValueOf(trx, move.subscriptionId, move.fen))
      await takeBack(trx, share.order.trade_id, share.fen);
  },
};

/**
 * `fen` more of an order's payment left it (its share of a refund, or of credit moved to the
 * balance): what stays earned is the rebate of what the invitee kept paying, ⌊(paid − refunded) ×
 * rate⌋ — taken from the pending rebate while it is held (all of it: reversed, never released),
 * from the available rebate after its release (which may go negative, made up by later rebates).
 */
async function takeBack(trx: Kysely<DB>, tradeId: string, fen: number): Promise<void> {
  if (fen <= 0) return;
  const row = await trx.selectFrom("aff_rebates").selectAll().where("trade_id", "=", tradeId).executeTakeFirst();
  if (!row || row.state === RebateState.Reversed) return;
  const refunded = Number(row.refunded) + fen;
  const kept = Math.max(0, Number(row.order_amount) - refunded);
  const reversed = Math.min(row.amount, Math.max(Number(row.reversed), row.amount - rebateOf(kept, row.rate_bp)));
  await trx.updateTable("aff_rebates").set({ refunded, reversed }).where("id", "=", row.id).execute();
  // A rebate fully taken back while still held is reversed; after release it stays, netted out of available.
  await trx
    .updateTable("aff_rebates")
    .set({ state: RebateState.Reversed })
    .where("id", "=", row.id)
    .where("state", "=", RebateState.Pending)
    .where((eb) => eb("reversed", ">=", eb.ref("amount")))
    .execute();
}

/**
 * Releases pending rebates whose holding period ended and whose invitee has verified an identity
 * other than the inviter's (all inviters, or one): a self-referral needs a second real identity
 * before its rebate can be withdrawn. Rows that wait stay pending (listRebates says why). The
 * invitee's ID hash is kept on the row for the operators' signals. Conditional updates, so it is
 * idempotent and safe beside the job in another process.
 * @returns how many were released
 */
async function releaseDue(db: Kysely<DB>, now: Date, uid?: number): Promise<number> {
  const iso = now.toISOString();
  const due = await db
    .selectFrom("aff_rebates")
    .select(["id", "uid", "invitee_uid"])
    .where("state", "=", RebateState.Pending)
    .where("release_at", "<=", iso)
    .where("invitee_uid", "in", verifiedUids(db))
    .$if(uid !== undefined, (q) => q.where("uid", "=", uid as number))
    .orderBy("id")
    .limit(1000)
    .execute();
  if (!due.length) return 0;
  const ids = await identitiesOf(db, [...due.map((r) => r.uid), ...due.map((r) => r.invitee_uid)]);
  const byHash = new Map<string, number[]>();
  for (const r of due) {
    const hash = ids.get(r.invitee_uid)?.id_hash;
    if (!hash || hash === ids.get(r.uid)?.id_hash) continue;
    byHash.set(hash, [...(byHash.get(hash) ?? []), r.id]);
  }
  let released = 0;
  for (const [hash, rows] of byHash) {
    const r = await db
      .updateTable("aff_rebates")
      .set({ state: RebateState.Available, released_at: iso, invitee_id_hash: hash })
      .where("id", "in", rows)
      .where("state", "=", RebateState.Pending)
      .executeTakeFirst();
    released += Number(r.numUpdatedRows);
  }
  return released;
}

/**
 * The release job: pending rebates whose holding period ended become available. `now` is a
 * parameter so that tests move the clock. A customer's own reads and withdrawals also release
 * their due rebates first, so what they see never waits for the job's next run.
 */
export const releaseRebates = (ctx: AppContext, now: Date = new Date()): Promise<number> => releaseDue(ctx.db, now);

/** The programme's background jobs (started by buildApp outside tests; tests call releaseRebates). */
export const affiliateJobs: JobDef[] = [
  { name: "affiliate.release", everyMs: 10 * 60_000, run: (ctx) => releaseRebates(ctx) },
];

// ---------------------------------------------------------------- totals

interface Totals {
  pending: number;
  available: number;
  withdrawn: number;
  processing: number;
}

const num = (v: unknown) => Number(v ?? 0);

/** A customer's rebate totals, from the rows (call under lockUser when deciding on them). */
async function totalsOf(db: Kysely<DB>, uid: number): Promise<Totals> {
  const [rebates, withdrawals] = await Promise.all([
    db
      .selectFrom("aff_rebates")
      .select([
        sql<string>`sum(case when state = ${RebateState.Pending} then amount - reversed else 0 end)`.as("pending"),
        sql<string>`sum(case when state = ${RebateState.Available} then amount - reversed else 0 end)`.as("released"),
      ])
      .where("uid", "=", uid)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("aff_withdrawals")
      .select([
        sql<string>`sum(case when status = ${WithdrawalStatus.Done} then amount else 0 end)`.as("withdrawn"),
        sql<string>`sum(case when status = ${WithdrawalStatus.Processing} then amount else 0 end)`.as("processing"),
      ])
      .where("uid", "=", uid)
      .executeTakeFirstOrThrow(),
  ]);
  const withdrawn = num(withdrawals.withdrawn);
  const processing = num(withdrawals.processing);
  return {
    pending: num(rebates.pending),
    available: num(rebates.released) - withdrawn - processing,
    withdrawn,
    processing,
  };
}

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
    ctx.db
      .selectFrom("aff_withdrawals")
      .select("id")
      .where("uid", "=", uid)
      .where("status", "=", WithdrawalStatus.Processing)
      .where("method", "<>", "balance")
      .executeTakeFirst(),
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

// ---------------------------------------------------------------- withdrawals

/** What the customer sees of an external account: enough to recognise it. */
function maskAccount(method: string, account: string | null): string | null {
  if (!account) return null;
  if (method === "bank") return `**** ${account.slice(-4)}`;
  const at = account.indexOf("@");
  if (at > 0) return `${account.slice(0, Math.min(3, at))}***${account.slice(at)}`;
  return account.length > 7 ? maskPhone(account) : account;
}

const presentWithdrawal = (w: AffWithdrawalRow, full = false): WithdrawalRow => ({
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
  return pageOf(
    q.page,
    q.size,
    async (limit, offset) =>
      (await base.selectAll().orderBy("id", "desc").limit(limit).offset(offset).execute()).map((w) =>
        presentWithdrawal(w),
      ),
    () => countRows(base),
  );
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
      const waiting = await trx
        .selectFrom("aff_withdrawals")
        .select("id")
        .where("uid", "=", uid)
        .where("status", "=", WithdrawalStatus.Processing)
        .where("method", "<>", "balance")
        .executeTakeFirst();
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

/** Phone numbers of one block: the same first 7 digits (carrier segment and area). */
const PHONE_PREFIX = 7;
/** Invitees and sign-ins looked at per customer for the signals (the most recent ones). */
const SIGNAL_INVITEES = 50;
const SIGNAL_LOGINS = 100;

/**
 * What links a customer to the invitees whose orders earned their rebates (self-referral), for
 * the operator deciding a withdrawal: see WithdrawalSignal in the contract.
 */
async function signalsOf(db: Kysely<DB>, uid: number, me: VerifiedIdentity | undefined): Promise<WithdrawalSignal[]> {
  const rebated = await db
    .selectFrom("aff_rebates")
    .select(["invitee_uid", "trade_id", "invitee_id_hash"])
    .where("uid", "=", uid)
    .orderBy("id", "desc")
    .limit(1000)
    .execute();
  const inviteeUids = [...new Set(rebated.map((r) => r.invitee_uid))].slice(0, SIGNAL_INVITEES);
  if (!inviteeUids.length) return [];
  const devices = async (u: number) =>
    (await listLoginLogs(db, u, 1, SIGNAL_LOGINS)).list.map((l) => ({ ip: l.ip, ua: l.user_agent }));
  const [phones, ids, mine, myOrders, theirOrders] = await Promise.all([
    shownPhonesOf(db, [uid, ...inviteeUids]),
    identitiesOf(db, inviteeUids),
    devices(uid),
    orderClientIps(db, { uid }),
    orderClientIps(db, { tradeIds: rebated.map((r) => r.trade_id).slice(0, 500) }),
  ]);
  const myPhone = phones.get(uid) ?? "";
  const myDevices = new Set(mine.map((d) => `${d.ip}\n${d.ua}`));
  const myIps = new Set([...mine.map((d) => d.ip), ...myOrders.map((o) => o.client_ip)]);
  const out: WithdrawalSignal[] = [];
  for (const invitee of inviteeUids) {
    const phone = phones.get(invitee) ?? "";
    const who = `被邀请人 UID ${invitee}${phone ? `（${phone}）` : ""}`;
    if (myPhone.length === 11 && phone.length === 11 && myPhone.slice(0, PHONE_PREFIX) === phone.slice(0, PHONE_PREFIX))
      out.push({
        kind: "phone_prefix",
        detail: `${who}：手机号前 ${PHONE_PREFIX} 位同为 ${phone.slice(0, PHONE_PREFIX)}`,
      });
    const shared = (await devices(invitee)).find((d) => myDevices.has(`${d.ip}\n${d.ua}`));
    if (shared) out.push({ kind: "device", detail: `${who}：同一 IP（${shared.ip}）和浏览器登录过` });
    const paid = theirOrders.find((o) => o.uid === invitee && myIps.has(o.client_ip));
    if (paid)
      out.push({ kind: "payer", detail: `${who}：订单 ${paid.trade_id} 从你用过的地址 ${paid.client_ip} 下单支付` });
    const hashes = new Set(rebated.filter((r) => r.invitee_uid === invitee).map((r) => r.invitee_id_hash));
    hashes.add(ids.get(invitee)?.id_hash ?? null);
    if (me?.id_hash && hashes.has(me.id_hash))
      out.push({ kind: "id_hash", detail: `${who}：实名认证的身份证号码与该用户相同` });
  }
  return out;
}

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
