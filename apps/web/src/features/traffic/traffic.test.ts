import { describe, expect, it } from "vitest";
import { dailyTrafficOption, quotaPercent, sumTraffic, totalsBarOption } from "./chart-options";

const days = [
  { date: "2026-11-20", traffic_in: 100, traffic_out: 1024 },
  { date: "2026-11-21", traffic_in: 0, traffic_out: 0 },
];

describe("traffic charts", () => {
  it("draws one point per day for each direction", () => {
    const option = dailyTrafficOption(days) as {
      xAxis: { data: string[] };
      series: { data: number[] }[];
    };
    expect(option.xAxis.data).toEqual(["11-20", "11-21"]);
    expect(option.series.map((s) => s.data)).toEqual([
      [100, 0],
      [1024, 0],
    ]);
  });

  it("puts the heaviest item at the top of the bar chart", () => {
    const option = totalsBarOption([
      { name: "big", traffic_in: 10, traffic_out: 10 },
      { name: "small", traffic_in: 1, traffic_out: 0 },
    ]) as { yAxis: { data: string[] } };
    // ECharts draws the first category at the bottom.
    expect(option.yAxis.data).toEqual(["small", "big"]);
  });

  it("sums a range", () => {
    expect(sumTraffic(days)).toEqual({ in: 100, out: 1024 });
    expect(sumTraffic([])).toEqual({ in: 0, out: 0 });
  });
});

describe("quotaPercent", () => {
  it("is the used share, capped at 100", () => {
    expect(quotaPercent(0, 100)).toBe(0);
    expect(quotaPercent(1, 3)).toBe(33.3);
    expect(quotaPercent(150, 100)).toBe(100);
  });

  it("handles an empty quota", () => {
    expect(quotaPercent(0, 0)).toBe(0);
    expect(quotaPercent(5, 0)).toBe(100);
  });
});
