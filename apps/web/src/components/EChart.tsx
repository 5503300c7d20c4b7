import { BarChart, LineChart } from "echarts/charts";
import { GridComponent, LegendComponent, TooltipComponent } from "echarts/components";
import type { EChartsCoreOption } from "echarts/core";
import * as echarts from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";
import { useEffect, useRef } from "react";
import { reducedMotion } from "@/lib/motion";

// Only what the app's charts draw, so the chunk stays small (ECharts' modular API).
echarts.use([LineChart, BarChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export interface EChartProps {
  option: EChartsCoreOption;
  /** what the chart shows, for screen readers and tests */
  label: string;
  height?: number;
  className?: string;
  testId?: string;
}

/** One ECharts canvas that follows its container's size. */
export function EChart({ option, label, height = 300, className = "echart", testId }: EChartProps) {
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
    chart.current?.setOption(reducedMotion ? { ...option, animation: false } : option, { notMerge: true });
  }, [option]);

  return <div ref={el} className={className} style={{ height }} role="img" aria-label={label} data-testid={testId} />;
}
