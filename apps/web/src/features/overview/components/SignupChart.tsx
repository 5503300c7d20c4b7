import type { ViewInfo } from "@burrow/contract";
import { useMemo } from "react";
import { EChart } from "@/components/EChart";

/** Line chart of daily sign-ups (ECharts). */
export function SignupChart({ data }: { data: ViewInfo["signups"] }) {
  const option = useMemo(
    () => ({
      grid: { left: 40, right: 16, top: 24, bottom: 32 },
      tooltip: { trigger: "axis", valueFormatter: (v: unknown) => `${v} 人` },
      xAxis: {
        type: "category",
        boundaryGap: false,
        data: data.map((d) => d.date.slice(5)),
      },
      yAxis: { type: "value", minInterval: 1 },
      series: [
        {
          name: "注册人数",
          type: "line",
          smooth: true,
          showSymbol: false,
          areaStyle: { opacity: 0.12 },
          data: data.map((d) => d.count),
        },
      ],
    }),
    [data],
  );

  const total = data.reduce((sum, d) => sum + d.count, 0);
  return (
    <EChart
      option={option}
      className="signup-chart"
      height={320}
      label={`近 ${data.length} 天注册趋势，共 ${total} 人`}
      testId="signup-chart"
    />
  );
}
