import type { AffDay } from "@burrow/contract";
import { fenToYuan } from "@burrow/contract";
import type { EChartsCoreOption } from "echarts/core";

/** The 30-day chart: rebate earned per day (bars, yuan) and invitees signed up (line, right axis). */
export function affDaysOption(days: AffDay[]): EChartsCoreOption {
  return {
    grid: { left: 56, right: 48, top: 40, bottom: 32 },
    legend: { top: 0 },
    tooltip: { trigger: "axis" },
    xAxis: { type: "category", data: days.map((d) => d.date.slice(5)) },
    yAxis: [
      { type: "value", name: "元", minInterval: 0.01 },
      { type: "value", name: "人", minInterval: 1 },
    ],
    series: [
      { name: "返利（元）", type: "bar", data: days.map((d) => Number(fenToYuan(d.rebate))) },
      { name: "邀请注册（人）", type: "line", yAxisIndex: 1, smooth: true, data: days.map((d) => d.invited) },
    ],
  };
}
