import type { EChartsCoreOption } from "echarts/core";
import { useEffect, useRef } from "react";
import { echarts } from "./echarts";

export interface EChartProps {
  option: EChartsCoreOption;
  /** what the chart shows, for screen readers and tests */
  label: string;
  height?: number;
}

/** One ECharts canvas that follows its container's size. */
export function EChart({ option, label, height = 300 }: EChartProps) {
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
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  return <div ref={el} className="echart" style={{ height }} role="img" aria-label={label} />;
}
