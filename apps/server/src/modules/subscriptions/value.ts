import { SubscriptionStatus } from "@burrow/contract";
import { DAY_MS } from "./periods";

/**
 * The value model: what one subscription is worth now. Pure (no I/O), so that every place that
 * lets value leave a subscription — upgrade credit, refunds, late online upgrades — asks the same
 * question and a reader can check the answer. docs/payments.md explains it with an example.
 *
 *   paid       fen put into it: its purchase and extensions, after fee discounts and promo codes,
 *              including upgrade credit it was bought with (gift-card months add nothing)
 *   given_back fen that already left it: upgrade credit drawn from it, refunds paid from it
 *   worth      floor(min(unused share of paid time, unused share of paid traffic) × paid)
 *   remaining  max(0, worth − given_back)
 *
 * An annual plan grants its whole year of traffic at once, so a customer who spent the traffic
 * has spent the value even if the days are not over; hence the smaller of the two shares.
 *
 * Only the paid part counts. Free additions (check-in bonus traffic, gift-card months and traffic,
 * any 0-fen addition) are recorded as free_quota and free_ms and left out of both shares: usage
 * counts against the paid traffic first, and the free months are taken to come after the paid
 * ones. Otherwise a gift card or a check-in on a spent plan would make its payment refundable again.
 */

/** A share as a fraction `unused / total` (integers, total > 0). */
export interface Share {
  unused: number;
  total: number;
}

/** The fields of a subscription the model reads. */
export interface ValueInput {
  start_at: string;
  end_at: string | null;
  paid_amount: number;
  given_back: number;
  traffic_quota: number;
  traffic_used: number;
  status: number;
  /** bytes of traffic_quota given for free */
  free_quota: number;
  /** ms at the end of the span given for free */
  free_ms: number;
}

export interface SubscriptionValue {
  paid: number;
  given_back: number;
  /** whole paid days: total = the paid span rounded, unused = whole paid days left (today counts as used) */
  time: Share;
  /** bytes: unused = paid quota − used (not below 0), paid quota = quota − free quota */
  traffic: Share;
  /** floor(min(time, traffic) × paid) */
  worth: number;
  /** what may still leave it, fen */
  remaining: number;
  /** how the remaining value was reached, in words for operators */
  reason: string;
}

const NONE: Share = { unused: 0, total: 1 };

/** The unused whole days of a span: today counts as used; an ended or endless span has none. */
export function timeShare(startAt: string, endAt: string | null, now: Date): Share {
  if (!endAt) return NONE;
  const end = Date.parse(endAt);
  const total = Math.max(1, Math.round((end - Date.parse(startAt)) / DAY_MS));
  const unused = Math.min(total, Math.max(0, Math.floor((end - now.getTime()) / DAY_MS)));
  return { unused, total };
}

/** The unused share of a quota; a subscription without traffic is worth its time alone until used. */
export function trafficShare(quota: number, used: number): Share {
  if (quota <= 0) return used > 0 ? NONE : { unused: 1, total: 1 };
  return { unused: Math.max(0, quota - used), total: quota };
}

/**
 * The unused share of the paid time: the span without its free ms, taken off the end (the paid
 * days are used first). A span that is all free has no paid time.
 */
export function paidTimeShare(startAt: string, endAt: string | null, freeMs: number, now: Date): Share {
  if (!endAt) return NONE;
  const paidEnd = Date.parse(endAt) - Math.max(0, freeMs);
  if (paidEnd <= Date.parse(startAt)) return NONE;
  return timeShare(startAt, new Date(paidEnd).toISOString(), now);
}

/**
 * The unused share of the paid traffic: usage counts against the paid quota first. A plan whose
 * paid part has no traffic is worth its time alone until usage passes the free traffic.
 */
export function paidTrafficShare(quota: number, freeQuota: number, used: number): Share {
  const paid = quota - Math.max(0, freeQuota);
  if (paid <= 0) return used > quota ? NONE : { unused: 1, total: 1 };
  return trafficShare(paid, used);
}

/** The smaller of two shares (exact: cross-multiplied in BigInt, bytes × days can pass 2^53). */
export function minShare(a: Share, b: Share): Share {
  return BigInt(a.unused) * BigInt(b.total) <= BigInt(b.unused) * BigInt(a.total) ? a : b;
}

/** floor(fen × share), exact. */
export function applyShare(fen: number, s: Share): number {
  if (fen <= 0 || s.unused <= 0) return 0;
  return Number((BigInt(fen) * BigInt(s.unused)) / BigInt(s.total));
}

const pct = (s: Share) => `${Math.floor((s.unused * 1000) / s.total) / 10}%`;

/** What a subscription is worth now and why. Refunded or expired (ended, or replaced by an upgrade) ones hold nothing. */
export function subscriptionValue(sub: ValueInput, now: Date): SubscriptionValue {
  const paid = Number(sub.paid_amount);
  const givenBack = Number(sub.given_back);
  const live = sub.status === SubscriptionStatus.InUse || sub.status === SubscriptionStatus.OverQuota;
  const time = live ? paidTimeShare(sub.start_at, sub.end_at, Number(sub.free_ms), now) : NONE;
  const traffic = paidTrafficShare(Number(sub.traffic_quota), Number(sub.free_quota), Number(sub.traffic_used));
  const worth = applyShare(paid, minShare(time, traffic));
  const remaining = Math.max(0, worth - givenBack);
  let why: string;
  if (sub.status === SubscriptionStatus.Refunded) why = "套餐已退款";
  else if (!live) why = "套餐已结束（到期或已升级）";
  else if (!sub.end_at) why = "免费套餐";
  else if (paid <= 0) why = "套餐未付费（礼品卡或赠送）";
  else {
    const free = Number(sub.free_quota) > 0 || Number(sub.free_ms) > 0 ? "（赠送的时长和流量不计）" : "";
    why = `剩余 ${time.unused}/${time.total} 天，剩余流量 ${pct(traffic)}，按较小者计 ${worth} 分${free}`;
  }
  const parts = [`已付 ${paid} 分`, why];
  if (givenBack > 0) parts.push(`已转出 ${givenBack} 分（升级抵扣或退款）`);
  parts.push(`剩余价值 ${remaining} 分`);
  return { paid, given_back: givenBack, time, traffic, worth, remaining, reason: parts.join("；") };
}

/** What an order that extended (or renewed) a subscription added to it. */
export interface ExtensionAdded {
  sub_end_before: string;
  sub_end_after: string;
  quota_added: number;
  value_added: number;
}

/**
 * The subscription as it is once an extension is taken back: the end moves back by the months it
 * added, its traffic and value leave; a live one turns expired if that end has passed, else in
 * use or over quota from its usage. A 0-fen extension was recorded as free (applyPurchase), so
 * its months and traffic leave the free parts too.
 */
export function withoutExtension<T extends ValueInput>(sub: T, ext: ExtensionAdded, now: Date): T {
  if (!sub.end_at) return sub;
  const shift = Date.parse(ext.sub_end_after) - Date.parse(ext.sub_end_before);
  const end = new Date(Date.parse(sub.end_at) - shift).toISOString();
  const quota = Math.max(0, Number(sub.traffic_quota) - Number(ext.quota_added));
  let status = sub.status;
  if (status === SubscriptionStatus.InUse || status === SubscriptionStatus.OverQuota) {
    if (Date.parse(end) <= now.getTime()) status = SubscriptionStatus.Expired;
    else status = Number(sub.traffic_used) < quota ? SubscriptionStatus.InUse : SubscriptionStatus.OverQuota;
  }
  const free = Number(ext.value_added) <= 0;
  return {
    ...sub,
    end_at: end,
    traffic_quota: quota,
    free_quota: free ? Math.max(0, Number(sub.free_quota) - Number(ext.quota_added)) : Number(sub.free_quota),
    free_ms: free ? Math.max(0, Number(sub.free_ms) - shift) : Number(sub.free_ms),
    paid_amount: Math.max(0, Number(sub.paid_amount) - Number(ext.value_added)),
    status,
  };
}

/** What a refund of one order may pay by the model, and why. */
export interface RefundQuote {
  /** the default refund, fen */
  refundable: number;
  /** the most an operator may pay with an explicit override: what the order put in, less what already left */
  max_override: number;
  reason: string;
}

/**
 * A refund of the order that opened a subscription takes the whole subscription back: it pays
 * what is left of it. An override may pay up to what the order put in less what the
 * subscription already gave out (credit into an upgrade, refunds), so that value never leaves twice.
 */
export function openingRefund(sub: ValueInput, valueAdded: number, now: Date): RefundQuote {
  const v = subscriptionValue(sub, now);
  return {
    refundable: v.remaining,
    max_override: Math.max(v.remaining, Number(valueAdded) - v.given_back),
    reason: v.reason,
  };
}

/**
 * A refund of an extension takes back its months, traffic and value: it pays what the
 * subscription loses by that (value before − value after), never more than the extension added.
 */
export function extensionRefund(sub: ValueInput, ext: ExtensionAdded, now: Date): RefundQuote {
  const before = subscriptionValue(sub, now);
  const after = subscriptionValue(withoutExtension(sub, ext, now), now);
  const va = Number(ext.value_added);
  const refundable = Math.min(va, Math.max(0, before.remaining - after.remaining));
  const given = before.given_back > 0 ? `；该套餐已转出 ${before.given_back} 分` : "";
  return {
    refundable,
    max_override: Math.max(refundable, Math.min(va, before.remaining)),
    reason: `续费加入 ${va} 分；收回后套餐价值从 ${before.remaining} 分降到 ${after.remaining} 分${given}；${before.reason}`,
  };
}

/**
 * An upgrade settled at payment time against the credit of the replaced subscription now (it may
 * have shrunk or grown since the order was priced). The customer paid `amount` for a plan whose
 * price after codes is `price`: with the credit now it is either covered — the excess goes to the
 * balance — or not, and the payment is not enough for the upgrade.
 */
export function settleUpgrade(p: {
  price: number;
  amount: number;
  creditNow: number;
}): { covered: true; toBalance: number } | { covered: false; short: number } {
  const have = p.creditNow + p.amount;
  if (have < p.price) return { covered: false, short: p.price - have };
  return { covered: true, toBalance: Math.min(have - p.price, p.creditNow) };
}
