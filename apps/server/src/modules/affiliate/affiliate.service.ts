import { type AffSetting, type AffSettingBody, OrderType, PayStatus, RebateState } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext, OrderHook } from "../../context";
import type { DB } from "../../db/schema";
import type { Operator } from "../../shared/actor";
import type { JobDef } from "../../shared/jobs";
import { getSetting, setSetting } from "../../shared/settings";
import { DAY_MS } from "../../shared/time";
import { audit } from "../audit/audit";
import { shareValueOf } from "../orders/value-sources";
import { maskedPhone } from "../users/users.presenter";
import { findUserByUid } from "../users/users.repository";
import { identitiesOf, verifiedUids } from "../verify/identity";

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
export async function releaseDue(db: Kysely<DB>, now: Date, uid?: number): Promise<number> {
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
