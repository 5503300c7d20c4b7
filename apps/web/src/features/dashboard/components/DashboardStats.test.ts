import { describe, expect, it } from "vitest";
import { quotaPercent } from "./DashboardStats";

describe("quotaPercent", () => {
  it("is the used share with one decimal, capped at 100", () => {
    expect(quotaPercent(0, 100)).toBe(0);
    expect(quotaPercent(1, 3)).toBe(33.3);
    expect(quotaPercent(150, 100)).toBe(100);
    expect(quotaPercent(0, 0)).toBe(0);
    expect(quotaPercent(5, 0)).toBe(100);
  });
});
