import { describe, expect, it } from "vitest";
import { nextPlace, PAY_POLL_LIMIT_MS, payOutcome, retryPlace } from "./pay-result";

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
