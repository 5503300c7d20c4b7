/** Date ranges of the traffic queries (Asia/Shanghai days) and their day series. */
import type { TrafficDay } from "@burrow/contract";
import { invalid } from "../../shared/errors";
import { addDays, shanghaiDate } from "../../shared/time";

/** Longest range a traffic query may span, in days. */
const MAX_RANGE_DAYS = 366;

/** Resolves an optional date range ending today (Asia/Shanghai) and checks it. */
export function dateRange(q: { start_date?: string; end_date?: string }, defaultDays: number): [string, string] {
  const end = q.end_date ?? shanghaiDate();
  const start = q.start_date ?? addDays(end, -(defaultDays - 1));
  if (start > end) throw invalid("start_date", "开始日期不能晚于结束日期");
  if (addDays(start, MAX_RANGE_DAYS) <= end) throw invalid("start_date", `日期范围最多 ${MAX_RANGE_DAYS} 天`);
  return [start, end];
}

/** Every day of [start, end] with the given sums, zeros where nothing flowed. */
export function fillDays(
  start: string,
  end: string,
  rows: { day: string; traffic_in: unknown; traffic_out: unknown }[],
): TrafficDay[] {
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const out: TrafficDay[] = [];
  for (let d = start; d <= end; d = addDays(d, 1)) {
    const r = byDay.get(d);
    out.push({ date: d, traffic_in: Number(r?.traffic_in ?? 0), traffic_out: Number(r?.traffic_out ?? 0) });
  }
  return out;
}
