import { describe, expect, it } from "vitest";
import { nextPlace, PAY_POLL_LIMIT_MS, payOutcome, retryPlace } from "./pay-result";
import { appliedPromotion, bonusFor, nextPromotion, usedPercent } from "./recharge";

const promos = [
  { id: 1, min_amount: 5000, bonus: 500 },
  { id: 2, min_amount: 10000, bonus: 1500 },
  { id: 3, min_amount: 10000, bonus: 1000 },
  { id: 4, min_amount: 20000, bonus: 1200 },
];

describe("recharge promotions", () => {
  it("gives the best single bonus reached, like the server", () => {
    expect(bonusFor(promos, 4999)).toBe(0);
    expect(bonusFor(promos, 5000)).toBe(500);
    expect(bonusFor(promos, 10000)).toBe(1500);
    // A larger minimum with a smaller bonus does not replace a better one.
    expect(bonusFor(promos, 30000)).toBe(1500);
    expect(bonusFor([], 30000)).toBe(0);
  });

  it("names the promotion applied", () => {
    expect(appliedPromotion(promos, 12000)?.id).toBe(2);
    expect(appliedPromotion(promos, 100)).toBeUndefined();
  });

  it("points at the next better promotion and what is missing", () => {
    expect(nextPromotion(promos, 3000)).toEqual({ promo: promos[0], missing: 2000 });
    expect(nextPromotion(promos, 6000)).toEqual({ promo: promos[1], missing: 4000 });
    // Nothing bigger gives more than 15 yuan.
    expect(nextPromotion(promos, 10000)).toBeUndefined();
  });
});

describe("usedPercent", () => {
  it("is the share of the quota used, capped at 100", () => {
    expect(usedPercent(0, 1024)).toBe(0);
    expect(usedPercent(512, 1024)).toBe(50);
    expect(usedPercent(1, 3)).toBe(33.3);
    expect(usedPercent(5000, 1024)).toBe(100);
  });

  it("treats a zero quota as full once anything is used", () => {
    expect(usedPercent(0, 0)).toBe(0);
    expect(usedPercent(1, 0)).toBe(100);
  });
});

describe("payment result", () => {
  it("says paid, closed or refunded at once, waits otherwise until the limit", () => {
    expect(payOutcome(1, 0)).toBe("paid");
    expect(payOutcome(-1, 0)).toBe("closed");
    expect(payOutcome(-2, 0)).toBe("refunded");
    expect(payOutcome(2, 0)).toBe("waiting");
    expect(payOutcome(2, PAY_POLL_LIMIT_MS)).toBe("timeout");
    expect(payOutcome(1, PAY_POLL_LIMIT_MS)).toBe("paid");
  });

  it("sends recharges to the balance and purchases to the plans", () => {
    expect(nextPlace(1).path).toBe("/epay/recharge");
    for (const type of [2, 3, 4]) expect(nextPlace(type).path).toBe("/epay/plan");
    expect(retryPlace(1).path).toBe("/epay/recharge");
    expect(retryPlace(2).path).toBe("/purchase/plan");
    expect(retryPlace(3).path).toBe("/purchase/plan");
    expect(retryPlace(4).path).toBe("/epay/plan");
  });
});
