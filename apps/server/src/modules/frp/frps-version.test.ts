import { describe, expect, it } from "vitest";
import { MIN_FRPS_VERSION, unsupportedFrps } from "./frps-version";

describe("the minimum supported frps", () => {
  it("is 0.58.0: older versions are named with the reason, newer and equal ones pass", () => {
    expect(MIN_FRPS_VERSION).toBe("0.58.0");
    for (const v of ["0.52.3", "0.57.9", "v0.52.0", "0.9.99"])
      expect(unsupportedFrps(v)).toContain("低于支持的最低版本");
    for (const v of ["0.58.0", "0.61.2", "0.70.1", "1.0.0", "v0.58.1"]) expect(unsupportedFrps(v)).toBeNull();
  });

  it("says nothing without a version and names one it cannot read", () => {
    expect(unsupportedFrps("")).toBeNull();
    expect(unsupportedFrps(null)).toBeNull();
    expect(unsupportedFrps("dev")).toContain("无法识别");
  });
});
