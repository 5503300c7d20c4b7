import { describe, expect, it } from "vitest";
import { GB } from "./default-plan";
import { addMonths, DAY_MS } from "./periods";
import {
  extensionRefund,
  openingRefund,
  settleUpgrade,
  subscriptionValue,
  type ValueInput,
  withoutExtension,
} from "./value";

const now = new Date("2026-06-01T00:00:00.000Z");
const at = (days: number, hours = 0) => new Date(now.getTime() + days * DAY_MS + hours * 3600_000).toISOString();
/** Bought a moment before `now`, as every purchase is by the time anything asks. */
const bought = at(0, -0.01);
const sub = (o: Partial<ValueInput> = {}): ValueInput => ({
  start_at: bought,
  end_at: at(30, -0.01),
  paid_amount: 3000,
  given_back: 0,
  traffic_quota: 100 * GB,
  traffic_used: 0,
  status: 1,
  free_quota: 0,
  free_ms: 0,
  ...o,
});
/**
 * Plan A of issue 17's gift-card attack: 5,000 for a month with 100 GB, bought just now, then a
 * 12-month gift card for A (1,200 GB, free) extends it: the paid month is followed by free months.
 */
const monthEnd = addMonths(bought, 1);
const giftEnd = addMonths(monthEnd, 12);
const giftedA = (o: Partial<ValueInput> = {}) =>
  sub({
    end_at: giftEnd,
    paid_amount: 5000,
    traffic_quota: 1300 * GB,
    free_quota: 1200 * GB,
    free_ms: Date.parse(giftEnd) - Date.parse(monthEnd),
    ...o,
  });
/** A 1 GB plan for 5,000 a month after one 1 GB daily check-in bonus. */
const checkedIn = (o: Partial<ValueInput> = {}) =>
  sub({ end_at: monthEnd, paid_amount: 5000, traffic_quota: 2 * GB, free_quota: 1 * GB, ...o });
/** Plan A of issue 17: 25,500 for a year (365 days) with 1,200 GB, bought just now. */
const annualA = (o: Partial<ValueInput> = {}) =>
  sub({ end_at: at(365, -0.01), paid_amount: 25_500, traffic_quota: 1200 * GB, ...o });

describe("what a subscription is worth now", () => {
  const cases: [string, ValueInput, number][] = [
    ["fresh: today counts as used", sub(), 2900],
    ["20 days and an hour left of 30", sub({ start_at: at(-10), end_at: at(20, 1) }), 2000],
    ["issue 17 plan A just bought: 364/365", annualA(), 25_430],
    ["traffic fully used the first day", annualA({ traffic_used: 1200 * GB }), 0],
    ["half the traffic used, time nearly all left", annualA({ traffic_used: 600 * GB }), 12_750],
    ["time is the smaller share", sub({ start_at: at(-20), end_at: at(10, 1), traffic_used: 10 * GB }), 1000],
    ["over quota (used beyond the quota)", sub({ traffic_used: 120 * GB, status: 2 }), 0],
    ["bought with a gift card: paid nothing", sub({ paid_amount: 0 }), 0],
    ["bought with a code: worth what was paid after it", sub({ paid_amount: 1600 }), Math.floor((1600 * 29) / 30)],
    ["the free plan never ends and is worth nothing", sub({ end_at: null, paid_amount: 0 }), 0],
    ["ended (expiry passed, job not yet run)", sub({ start_at: at(-31), end_at: at(-1) }), 0],
    ["expired by the job", sub({ status: -1 }), 0],
    ["refunded", sub({ status: -2 }), 0],
    ["replaced by an upgrade: given back everything", annualA({ status: -1, end_at: at(0), given_back: 25_430 }), 0],
    ["given back part (an override) while live", sub({ given_back: 900 }), 2000],
    ["given back more than it is worth: never negative", sub({ given_back: 5000 }), 0],
    [
      "multi-period extension: month + quarter, 121 days",
      sub({ end_at: addMonths(addMonths(bought, 1), 3), paid_amount: 1000 + 2430, traffic_quota: 400 * GB }),
      Math.floor((3430 * 121) / 122),
    ],
    // Free additions (gift cards, check-in bonus) are not paid value: they never raise it.
    ["gift-card months on a spent plan add nothing (was 4,615)", giftedA({ traffic_used: 100 * GB }), 0],
    ["gift-card months on a spent plan, well into them", giftedA({ traffic_used: 150 * GB, status: 1 }), 0],
    ["gift-card months on an unused plan: the paid month only", giftedA(), Math.floor((5000 * 29) / 30)],
    ["gift-card months, half the paid traffic used", giftedA({ traffic_used: 50 * GB }), 2500],
    [
      "gift-card months after the paid month passed",
      giftedA({ start_at: at(-31), end_at: addMonths(at(-1), 12), traffic_used: 0 }),
      0,
    ],
    ["check-in bonus on a spent 1 GB plan adds nothing (was 2,500)", checkedIn({ traffic_used: 1 * GB }), 0],
    ["check-in bonus: usage counts against the paid traffic first", checkedIn({ traffic_used: GB / 2 }), 2500],
    ["check-in bonus, none used: the paid traffic is whole", checkedIn(), Math.floor((5000 * 29) / 30)],
    [
      "a gift-card plan then a paid month: only the paid month is worth anything",
      sub({
        end_at: addMonths(bought, 2),
        paid_amount: 3000,
        traffic_quota: 200 * GB,
        free_quota: 100 * GB,
        free_ms: Date.parse(addMonths(bought, 1)) - Date.parse(bought),
      }),
      Math.floor((3000 * 30) / 31),
    ],
    ["all free: a plan opened by a gift card", sub({ paid_amount: 0, free_quota: 100 * GB, free_ms: 30 * DAY_MS }), 0],
    [
      "a plan without paid traffic is worth its time until usage passes the bonus",
      sub({ traffic_quota: 1 * GB, free_quota: 1 * GB, traffic_used: GB / 2 }),
      2900,
    ],
    ["… and nothing once usage passes it", sub({ traffic_quota: 1 * GB, free_quota: 1 * GB, traffic_used: 2 * GB }), 0],
    [
      "bytes × days beyond 2^53 stay exact",
      sub({ traffic_quota: 2 ** 50, traffic_used: 2 ** 49, paid_amount: 5_000_000 }),
      2_500_000,
    ],
  ];
  it.each(cases)("%s", (_name, s, remaining) => {
    expect(subscriptionValue(s, now).remaining).toBe(remaining);
  });

  it("explains itself", () => {
    const v = subscriptionValue(annualA({ traffic_used: 600 * GB, given_back: 100 }), now);
    expect(v.reason).toBe(
      "已付 25500 分；剩余 364/365 天，剩余流量 50%，按较小者计 12750 分；已转出 100 分（升级抵扣或退款）；剩余价值 12650 分",
    );
    expect(subscriptionValue(giftedA({ traffic_used: 50 * GB }), now).reason).toBe(
      "已付 5000 分；剩余 29/30 天，剩余流量 50%，按较小者计 2500 分（赠送的时长和流量不计）；剩余价值 2500 分",
    );
  });
});

describe("refunds by the model", () => {
  // Issue 17 case 1: A (25,500, annual) upgraded at once to B (5,000, monthly, 30 days).
  const credit = subscriptionValue(annualA(), now).remaining; // 25,430
  const aAfter = annualA({ status: -1, end_at: at(0), given_back: credit });
  const b = sub({ paid_amount: 5000 });

  it.each([
    ["B then A", [openingRefund(b, 5000, now), openingRefund(aAfter, 25_500, now)]],
    ["A then B", [openingRefund(aAfter, 25_500, now), openingRefund(b, 5000, now)]],
  ])("upgrade then refund %s: the old plan's value leaves once", (_n, quotes) => {
    const toBalanceAtUpgrade = credit - 5000; // 20,430
    const back = toBalanceAtUpgrade + quotes.reduce((n, q) => n + q.refundable, 0);
    expect(back).toBe(20_430 + Math.floor((5000 * 29) / 30));
    expect(back).toBeLessThanOrEqual(25_500);
    expect(openingRefund(aAfter, 25_500, now)).toMatchObject({ refundable: 0, max_override: 70 });
  });

  it("refunds an opening order with what is left, traffic included", () => {
    expect(openingRefund(annualA({ traffic_used: 1200 * GB }), 25_500, now)).toMatchObject({
      refundable: 0,
      max_override: 25_500,
    });
    expect(openingRefund(annualA({ traffic_used: 300 * GB }), 25_500, now).refundable).toBe(19_125);
  });

  const ext = (s: ValueInput, months: number, value: number, quota: number) => ({
    sub_end_before: s.end_at ?? "",
    sub_end_after: addMonths(s.end_at ?? "", months),
    quota_added: quota,
    value_added: value,
  });

  it("refund of an extension after an upgrade pays nothing, even by override", () => {
    const base = sub({ end_at: addMonths(bought, 1) });
    const e = ext(base, 1, 3000, 100 * GB);
    const extended = { ...base, end_at: e.sub_end_after, paid_amount: 6000, traffic_quota: 200 * GB };
    const upgraded = { ...extended, status: -1, end_at: at(0), given_back: subscriptionValue(extended, now).remaining };
    expect(extensionRefund(upgraded, e, now)).toMatchObject({ refundable: 0, max_override: 0 });
  });

  it("refund of a multi-period extension takes back what it added, never more", () => {
    const base = sub({ end_at: addMonths(bought, 1), paid_amount: 1000 });
    const e = ext(base, 3, 2430, 300 * GB);
    const extended = { ...base, end_at: e.sub_end_after, paid_amount: 3430, traffic_quota: 400 * GB };
    const q = extensionRefund(extended, e, now);
    const before = subscriptionValue(extended, now).remaining;
    const after = subscriptionValue(withoutExtension(extended, e, now), now).remaining;
    expect(q.refundable).toBe(Math.min(2430, before - after));
    expect(q.refundable).toBeGreaterThan(2300);
    expect(withoutExtension(extended, e, now)).toMatchObject({
      end_at: base.end_at,
      paid_amount: 1000,
      traffic_quota: 100 * GB,
      status: 1,
    });
    // Once the traffic of all four months is spent, taking the extension back is worth nothing.
    expect(extensionRefund({ ...extended, traffic_used: 400 * GB, status: 2 }, e, now).refundable).toBe(0);
  });

  it("refund of a paid extension after a gift card pays only what the paid months lose", () => {
    // A month (5,000), extended by a paid month (5,000), then 12 gift-card months; 100 GB used.
    const base = sub({ end_at: monthEnd, paid_amount: 5000 });
    const e = ext(base, 1, 5000, 100 * GB);
    const freeMs = Date.parse(addMonths(e.sub_end_after, 12)) - Date.parse(e.sub_end_after);
    const extended = {
      ...base,
      end_at: addMonths(e.sub_end_after, 12),
      paid_amount: 10_000,
      traffic_quota: 1400 * GB,
      free_quota: 1200 * GB,
      free_ms: freeMs,
      traffic_used: 100 * GB,
    };
    // Paid traffic is half used: worth min(60/61, 1/2) × 10,000 = 5,000; without the extension 0.
    expect(extensionRefund(extended, e, now).refundable).toBe(5000);
    expect(withoutExtension(extended, e, now)).toMatchObject({
      traffic_quota: 1300 * GB,
      free_quota: 1200 * GB,
      free_ms: freeMs,
      paid_amount: 5000,
    });
  });

  it("taking back a 0-fen extension takes its free months and traffic with it", () => {
    const base = sub({ end_at: monthEnd, paid_amount: 5000 });
    const e = ext(base, 12, 0, 1200 * GB);
    const shift = Date.parse(e.sub_end_after) - Date.parse(e.sub_end_before);
    const extended = {
      ...base,
      end_at: e.sub_end_after,
      traffic_quota: 1300 * GB,
      free_quota: 1200 * GB,
      free_ms: shift,
    };
    expect(withoutExtension(extended, e, now)).toMatchObject({
      end_at: monthEnd,
      traffic_quota: 100 * GB,
      free_quota: 0,
      free_ms: 0,
    });
    expect(extensionRefund(extended, e, now).refundable).toBe(0);
  });

  it("an extension taken back after its own end has passed expires the subscription", () => {
    const base = sub({ start_at: at(-40), end_at: at(-10) });
    const e = ext(base, 1, 3000, 100 * GB);
    const extended = { ...base, end_at: e.sub_end_after, paid_amount: 6000, traffic_quota: 200 * GB };
    expect(withoutExtension(extended, e, now).status).toBe(-1);
  });
});

describe("settling an upgrade at payment time", () => {
  it.each([
    ["credit as priced", { price: 60_000, amount: 9070, creditNow: 50_930 }, { covered: true, toBalance: 0 }],
    [
      "credit grew (extended meanwhile)",
      { price: 60_000, amount: 9070, creditNow: 51_000 },
      { covered: true, toBalance: 70 },
    ],
    [
      "credit shrank: issue 17 case 3",
      { price: 60_000, amount: 9070, creditNow: 25_430 },
      { covered: false, short: 25_500 },
    ],
    ["credit above the price", { price: 5000, amount: 0, creditNow: 25_430 }, { covered: true, toBalance: 20_430 }],
  ])("%s", (_n, p, out) => {
    expect(settleUpgrade(p)).toEqual(out);
  });
});
