import { describe, expect, it } from "vitest";
import { appliedPromotion, bonusFor, nextPromotion } from "./recharge";

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
