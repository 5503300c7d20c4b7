import type { TrafficDay } from "@burrow/contract";
import type { EChartsCoreOption } from "echarts/core";
import { formatBytes } from "@/lib/format";

/** Traffic direction names, as the charts and tables label them. */
export const IN_LABEL = "入站（访客→本地）";
export const OUT_LABEL = "出站（本地→访客）";

/** A bytes axis with readable ticks ("1.00 GB"). */
const bytesAxis = { type: "value", minInterval: 1, axisLabel: { formatter: (v: number) => formatBytes(v) } };

const tooltipBytes = (v: unknown) => formatBytes(Number(v));

/**
 * Daily in/out traffic as a two-line chart.
 * @param days every day of the range (zeros included)
 */
export function dailyTrafficOption(days: TrafficDay[]): EChartsCoreOption {
  return {
    grid: { left: 80, right: 24, top: 40, bottom: 32 },
    legend: { top: 0 },
    tooltip: { trigger: "axis", valueFormatter: tooltipBytes },
    xAxis: { type: "category", boundaryGap: false, data: days.map((d) => d.date.slice(5)) },
    yAxis: bytesAxis,
    series: [
      {
        name: IN_LABEL,
        type: "line",
        smooth: true,
        showSymbol: days.length <= 31,
        areaStyle: { opacity: 0.1 },
        data: days.map((d) => d.traffic_in),
      },
      {
        name: OUT_LABEL,
        type: "line",
        smooth: true,
        showSymbol: days.length <= 31,
        areaStyle: { opacity: 0.1 },
        data: days.map((d) => d.traffic_out),
      },
    ],
  };
}

/**
 * Totals per item (node, tunnel) as stacked horizontal bars, heaviest at the top.
 * @param rows name and in/out bytes of each item
 */
export function totalsBarOption(rows: { name: string; traffic_in: number; traffic_out: number }[]): EChartsCoreOption {
  const sorted = [...rows].sort((a, b) => a.traffic_in + a.traffic_out - (b.traffic_in + b.traffic_out));
  return {
    grid: { left: 120, right: 24, top: 40, bottom: 24 },
    legend: { top: 0 },
    tooltip: { trigger: "axis", axisPointer: { type: "shadow" }, valueFormatter: tooltipBytes },
    xAxis: bytesAxis,
    yAxis: { type: "category", data: sorted.map((r) => r.name) },
    series: [
      { name: IN_LABEL, type: "bar", stack: "total", data: sorted.map((r) => r.traffic_in) },
      { name: OUT_LABEL, type: "bar", stack: "total", data: sorted.map((r) => r.traffic_out) },
    ],
  };
}

/** Sum of a range's traffic. */
export function sumTraffic(days: Pick<TrafficDay, "traffic_in" | "traffic_out">[]): { in: number; out: number } {
  return days.reduce((acc, d) => ({ in: acc.in + d.traffic_in, out: acc.out + d.traffic_out }), { in: 0, out: 0 });
}

/**
 * Share of a quota used, for a progress bar.
 * @returns 0–100, one decimal; 100 when the quota is 0 and something was used
 */
export function quotaPercent(used: number, total: number): number {
  if (total <= 0) return used > 0 ? 100 : 0;
  return Math.min(100, Math.round((used / total) * 1000) / 10);
}
