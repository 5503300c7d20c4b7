import type { ViewInfo } from "@burrow/contract";
import { useEffect, useRef } from "react";
import { echarts } from "./echarts";

/** Line chart of daily sign-ups (ECharts). */
export function SignupChart({ data }: { data: ViewInfo["signups"] }) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<ReturnType<typeof echarts.init> | null>(null);

  useEffect(() => {
    if (!el.current) return;
    const instance = echarts.init(el.current);
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(el.current);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption({
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
    });
  }, [data]);

  const total = data.reduce((sum, d) => sum + d.count, 0);
  return (
    <div
      ref={el}
      className="signup-chart"
      role="img"
      aria-label={`近 ${data.length} 天注册趋势，共 ${total} 人`}
      data-testid="signup-chart"
    />
  );
}
