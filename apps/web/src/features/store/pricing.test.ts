import type { OrderQuote, StorePlan } from "@burrow/contract";
import { applyMultiplier } from "@burrow/contract";
import { describe, expect, it } from "vitest";
import {
  bandwidthText,
  discountText,
  lineText,
  monthlyEquivalent,
  periodOf,
  periodsOnSale,
  pickPeriod,
  quoteLines,
} from "./pricing";

const quote = (over: Partial<OrderQuote>): OrderQuote => ({
  type: 2,
  action: "new",
  plan_id: 1,
  plan_name: "标准版",
  period: "quarterly",
  months: 3,
  fee: 2700,
  price: 2430,
  code: null,
  code_discount: 0,
  upgrade_credit: 0,
  credit_to_balance: 0,
  bonus: 0,
  amount: 2430,
  subscription_id: null,
  replaces_subscription_id: null,
  end_at: null,
  ...over,
});

const plan = (periods: StorePlan["periods"]) => ({ periods });
const period = (p: StorePlan["periods"][number]["period"], fee: number, fee_discount = 1) => ({
  period: p,
  months: { monthly: 1, quarterly: 3, semiannual: 6, annual: 12 }[p],
  fee,
  fee_discount,
  price: applyMultiplier(fee, fee_discount),
});

describe("applyMultiplier", () => {
  it("rounds half up to the fen like the server", () => {
    expect(applyMultiplier(1990, 0.85)).toBe(1692); // 1691.5 → 1692
    expect(applyMultiplier(2700, 0.9)).toBe(2430);
    expect(applyMultiplier(2430, 0.8)).toBe(1944);
    expect(applyMultiplier(1000, 1)).toBe(1000);
    expect(applyMultiplier(1, 0.5)).toBe(1); // 0.5 → 1
    expect(applyMultiplier(0, 0.85)).toBe(0);
  });

  it("is exact where floating point is not (0.1 × 3 style noise)", () => {
    expect(applyMultiplier(3000, 0.7)).toBe(2100);
    expect(applyMultiplier(999_999, 0.3333)).toBe(333_300);
  });
});

describe("discountText", () => {
  it("reads a multiplier as 折", () => {
    expect(discountText(0.85)).toBe("8.5折");
    expect(discountText(0.8)).toBe("8折");
    expect(discountText(0.755)).toBe("7.55折");
    expect(discountText(0.05)).toBe("0.5折");
  });

  it("is empty without a discount", () => {
    expect(discountText(1)).toBe("");
    expect(discountText(0)).toBe("");
  });
});

describe("periods", () => {
  const p = plan([period("monthly", 1000), period("annual", 12000, 0.8)]);

  it("finds a period's price, or nothing when it is not sold", () => {
    expect(periodOf(p, "annual")?.price).toBe(9600);
    expect(periodOf(p, "quarterly")).toBeUndefined();
  });

  it("preselects the wanted period when sold, else the first", () => {
    expect(pickPeriod(p, "annual")).toBe("annual");
    expect(pickPeriod(p, "quarterly")).toBe("monthly");
    expect(pickPeriod(p, null)).toBe("monthly");
    expect(pickPeriod(plan([]), "monthly")).toBeUndefined();
  });

  it("lists the periods any plan sells, in SPEC order", () => {
    const q = plan([period("semiannual", 5000), period("quarterly", 2700)]);
    expect(periodsOnSale([p, q])).toEqual(["monthly", "quarterly", "semiannual", "annual"]);
    expect(periodsOnSale([q])).toEqual(["quarterly", "semiannual"]);
    expect(periodsOnSale([])).toEqual([]);
  });

  it("compares periods per month", () => {
    expect(monthlyEquivalent(9600, 12)).toBe(800);
    expect(monthlyEquivalent(2430, 3)).toBe(810);
    expect(monthlyEquivalent(1000, 0)).toBe(1000);
  });

  it("says 不限 for unlimited bandwidth", () => {
    expect(bandwidthText(0)).toBe("不限");
    expect(bandwidthText(20)).toBe("20 Mbps");
  });
});

describe("quoteLines", () => {
  it("shows list price, period discount, code and the amount, and they add up", () => {
    const lines = quoteLines(quote({ code: "SPRING", code_discount: 486, amount: 1944 }));
    expect(lines.map((l) => [l.key, l.fen])).toEqual([
      ["fee", 2700],
      ["plan_discount", -270],
      ["code_discount", -486],
      ["amount", 1944],
    ]);
    expect(lines.find((l) => l.key === "code_discount")?.label).toBe("优惠码 SPRING");
    const sum = lines.filter((l) => l.key !== "amount").reduce((s, l) => s + l.fen, 0);
    expect(sum).toBe(1944);
  });

  it("leaves zero lines out", () => {
    expect(quoteLines(quote({ fee: 1000, price: 1000, amount: 1000 })).map((l) => l.key)).toEqual(["fee", "amount"]);
  });

  it("deducts only the upgrade credit that was used", () => {
    // Credit 3000 against a price of 2430: all 2430 is deducted, 570 goes to the balance.
    const big = quoteLines(quote({ action: "upgrade", upgrade_credit: 3000, credit_to_balance: 570, amount: 0 }));
    expect(big.find((l) => l.key === "upgrade_credit")?.fen).toBe(-2430);
    const small = quoteLines(quote({ action: "upgrade", upgrade_credit: 430, amount: 2000 }));
    expect(small.find((l) => l.key === "upgrade_credit")?.fen).toBe(-430);
  });

  it("shows a recharge bonus on top", () => {
    const lines = quoteLines(
      quote({ type: 1, action: "recharge", fee: 10000, price: 10000, bonus: 1000, amount: 10000 }),
    );
    expect(lines.map((l) => l.key)).toEqual(["fee", "bonus", "amount"]);
    expect(lineText(lines[1])).toBe("+¥10.00");
  });

  it("formats signed amounts", () => {
    expect(lineText({ key: "code_discount", label: "", fen: -486 })).toBe("-¥4.86");
    expect(lineText({ key: "amount", label: "", fen: 1944 })).toBe("¥19.44");
  });
});
