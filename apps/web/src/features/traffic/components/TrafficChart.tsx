import type { TrafficDay } from "@burrow/contract";
import { useMemo } from "react";
import { EChart } from "@/components/EChart";
import { dailyTrafficOption } from "../chart-options";

/** Daily in/out traffic (ECharts line chart). */
export function TrafficChart({ days, label, height }: { days: TrafficDay[]; label: string; height?: number }) {
  const option = useMemo(() => dailyTrafficOption(days), [days]);
  return <EChart option={option} label={label} height={height} />;
}
