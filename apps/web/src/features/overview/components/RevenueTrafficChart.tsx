import type { ViewInfo } from "@burrow/contract";
import { fenToYuan } from "@burrow/contract";
import { useMemo } from "react";
import { EChart } from "@/components/EChart";
import { formatBytes } from "@/lib/format";

const GB = 1024 ** 3;

/** 30 days of revenue (yuan, bars) and traffic (GB, line) on two axes. */
export function RevenueTrafficChart({ data }: { data: ViewInfo["daily"] }) {
  const option = useMemo(
    () => ({
      grid: { left: 56, right: 56, top: 40, bottom: 32 },
      legend: { top: 0 },
      tooltip: { trigger: "axis" },
      xAxis: { type: "category", data: data.map((d) => d.date.slice(5)) },
      yAxis: [
        { type: "value", name: "元", axisLabel: { formatter: (v: number) => `${v}` } },
        { type: "value", name: "GB", axisLabel: { formatter: (v: number) => `${v}` } },
      ],
      series: [
        {
          name: "营收",
          type: "bar",
          yAxisIndex: 0,
          tooltip: { valueFormatter: (v: unknown) => `¥${Number(v).toFixed(2)}` },
          data: data.map((d) => Number(fenToYuan(d.revenue))),
        },
        {
          name: "充值",
          type: "bar",
          yAxisIndex: 0,
          tooltip: { valueFormatter: (v: unknown) => `¥${Number(v).toFixed(2)}` },
          data: data.map((d) => Number(fenToYuan(d.recharge))),
        },
        {
          name: "流量",
          type: "line",
          yAxisIndex: 1,
          smooth: true,
          showSymbol: false,
          tooltip: { valueFormatter: (v: unknown) => formatBytes(Number(v) * GB) },
          data: data.map((d) => Number((d.traffic / GB).toFixed(3))),
        },
      ],
    }),
    [data],
  );
  const revenue = data.reduce((s, d) => s + d.revenue, 0);
  const traffic = data.reduce((s, d) => s + d.traffic, 0);
  return (
    <EChart
      option={option}
      className="revenue-chart"
      height={320}
      label={`近 ${data.length} 天营收 ¥${fenToYuan(revenue)}，流量 ${formatBytes(traffic)}`}
      testId="revenue-chart"
    />
  );
}
