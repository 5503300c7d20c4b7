import { describe, expect, it } from "vitest";
import { addMonths, DAY_MS, proRataCredit } from "./periods";

describe("addMonths (Asia/Shanghai calendar)", () => {
  it("keeps the time of day and clamps to the end of shorter months", () => {
    // 2026-01-31 10:00 Shanghai = 02:00Z
    expect(addMonths("2026-01-31T02:00:00.000Z", 1)).toBe("2026-02-28T02:00:00.000Z");
    expect(addMonths("2028-01-31T02:00:00.000Z", 1)).toBe("2028-02-29T02:00:00.000Z");
    expect(addMonths("2026-01-15T02:00:00.000Z", 3)).toBe("2026-04-15T02:00:00.000Z");
    expect(addMonths("2026-03-31T02:00:00.000Z", 6)).toBe("2026-09-30T02:00:00.000Z");
    expect(addMonths("2026-05-20T02:00:00.000Z", 12)).toBe("2027-05-20T02:00:00.000Z");
  });

  it("counts months by the Shanghai date, not the UTC one", () => {
    // 2026-03-01 03:00 Shanghai is still 2026-02-28 in UTC; one month later is 2026-04-01 03:00 Shanghai.
    expect(addMonths("2026-02-28T19:00:00.000Z", 1)).toBe("2026-03-31T19:00:00.000Z");
  });
});

describe("pro-rata credit", () => {
  const now = new Date("2026-06-01T00:00:00.000Z");
  const at = (days: number, hours = 0) => new Date(now.getTime() + days * DAY_MS + hours * 3600_000).toISOString();

  it("credits paid × unused whole days / total days, rounded down to the fen", () => {
    // 30-day plan paid 30.00, 10 days used, 20 days and a bit left → 20 unused days → 20.00
    expect(proRataCredit({ start_at: at(-10), end_at: at(20, 1), paid_amount: 3000 }, now)).toEqual({
      credit: 2000,
      unusedDays: 20,
      totalDays: 30,
    });
    // 91-day quarter paid 24.30 with 45.5 days left → 45 days → floor(2430 × 45 / 91) = 1201
    expect(proRataCredit({ start_at: at(-45.5), end_at: at(45.5), paid_amount: 2430 }, now).credit).toBe(1201);
    // the current day counts as used
    expect(proRataCredit({ start_at: at(-29), end_at: at(0, 23), paid_amount: 3000 }, now).credit).toBe(0);
  });

  it("is worth nothing for the free plan, a gift, or an ended subscription", () => {
    expect(proRataCredit({ start_at: at(-1), end_at: null, paid_amount: 0 }, now).credit).toBe(0);
    expect(proRataCredit({ start_at: at(-1), end_at: at(29), paid_amount: 0 }, now).credit).toBe(0);
    expect(proRataCredit({ start_at: at(-31), end_at: at(-1), paid_amount: 3000 }, now).credit).toBe(0);
  });
});
