import { describe, expect, it } from "vitest";
import { usedPercent } from "./usage";

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
