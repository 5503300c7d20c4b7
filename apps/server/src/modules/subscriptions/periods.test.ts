import { describe, expect, it } from "vitest";
import { addMonths } from "./periods";

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
