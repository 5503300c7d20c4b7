import type { TrafficDay } from "@burrow/contract";
import { useMemo } from "react";
import { dailyTrafficOption } from "../chart-options";
import { EChart } from "./EChart";

/** Daily in/out traffic (ECharts line chart). */
export function TrafficChart({ days, label, height }: { days: TrafficDay[]; label: string; height?: number }) {
  const option = useMemo(() => dailyTrafficOption(days), [days]);
  return <EChart option={option} label={label} height={height} />;
}
