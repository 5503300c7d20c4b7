/**
 * 定时开放: when a tunnel may carry traffic (issue 33 item 7). Either open until an instant (the
 * 15 min / 1 h / 4 h choices and "until a date", at most 7 days ahead) or weekly windows in
 * Asia/Shanghai time. The shapes and the window arithmetic both the form and the server check
 * with live here; the frp decision over them is @burrow/frp-decision's schedule.ts.
 */
import { z } from "zod";
import { parseInstant } from "./instant";

/** 1 = 周一 … 7 = 周日 (ISO weekdays, Asia/Shanghai). */
export const WeekdayLabel: Record<number, string> = {
  1: "周一",
  2: "周二",
  3: "周三",
  4: "周四",
  5: "周五",
  6: "周六",
  7: "周日",
};
export const DAY_MINUTES = 1440;
export const WEEK_MINUTES = 7 * DAY_MINUTES;
/** "Open until" reaches at most this far ahead. */
export const SCHEDULE_MAX_DAYS = 7;
/** The "open for" choices, in minutes. */
export const ScheduleOpenFor = [15, 60, 240] as const;
export const SCHEDULE_MAX_WINDOWS = 28;

const START = /^([01]\d|2[0-3]):[0-5]\d$/;
/** an end may be 24:00 (the day's end); one at or before the start ends the next day */
const END = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;

export const ScheduleWindow = z.object({
  day: z.number({ message: "请选择星期" }).int().min(1, "星期应为 1–7").max(7, "星期应为 1–7"),
  start: z.string().regex(START, "开始时间应为 HH:mm"),
  end: z.string().regex(END, "结束时间应为 HH:mm"),
});
export type ScheduleWindow = z.infer<typeof ScheduleWindow>;

/** What is stored and shown: open until an instant, or weekly windows. */
export type TunnelSchedule = { kind: "until"; until: string } | { kind: "weekly"; windows: ScheduleWindow[] };

const clockMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** A window as [start, start + length) minutes of the Shanghai week (Monday 00:00 = 0); length 0 is empty. */
export interface WindowSpan {
  start: number;
  length: number;
}

export function windowSpan(w: ScheduleWindow): WindowSpan {
  const s = clockMinutes(w.start);
  const e = clockMinutes(w.end);
  // An end at or before the start on the clock is the next day's (22:00–02:00), equal is empty.
  const length = e > s ? e - s : e < s ? e + DAY_MINUTES - s : 0;
  return { start: (w.day - 1) * DAY_MINUTES + s, length };
}

/**
 * The first pair of overlapping windows (indexes into `windows`), or null. The week is a circle:
 * Sunday 23:00–01:00 overlaps Monday 00:30–02:00. Windows that only touch do not overlap.
 */
export function overlappingWindows(windows: readonly ScheduleWindow[]): [number, number] | null {
  const spans = windows.map((w, i) => ({ ...windowSpan(w), i })).sort((a, b) => a.start - b.start);
  if (spans.length < 2) return null;
  for (let k = 0; k < spans.length; k++) {
    const a = spans[k];
    const b = spans[(k + 1) % spans.length];
    // minutes from a's start to the next start (the last wraps round to Monday's first)
    const gap = (b.start - a.start + WEEK_MINUTES) % WEEK_MINUTES;
    if (a.length > gap) return a.i < b.i ? [a.i, b.i] : [b.i, a.i];
  }
  return null;
}

/** PUT /user/tun/:tunid/schedule: open for a while, until an instant, or weekly windows. */
export const TunnelScheduleBody = z
  .object({
    mode: z.enum(["for", "until", "weekly"], { message: "请选择开放方式" }),
    /** mode "for": 15, 60 or 240 */
    minutes: z.number().int().optional(),
    /** mode "until": an ISO-8601 instant with Z or ±hh:mm, a real calendar time, within 7 days */
    until: z.string().optional(),
    /** mode "weekly" */
    windows: z.array(ScheduleWindow).max(SCHEDULE_MAX_WINDOWS, `最多 ${SCHEDULE_MAX_WINDOWS} 个时段`).optional(),
  })
  .superRefine((b, ctx) => {
    if (b.mode === "for" && !ScheduleOpenFor.includes(b.minutes as (typeof ScheduleOpenFor)[number]))
      ctx.addIssue({ code: "custom", path: ["minutes"], message: "开放时长应为 15 分钟、1 小时或 4 小时" });
    if (b.mode === "until") {
      const at = b.until ? parseInstant(b.until) : null;
      if (at === null)
        ctx.addIssue({
          code: "custom",
          path: ["until"],
          message: b.until ? "结束时间应为带时区的 ISO-8601 时间（如 2026-12-01T18:00:00+08:00）" : "请选择结束时间",
        });
      else if (at <= Date.now()) ctx.addIssue({ code: "custom", path: ["until"], message: "结束时间应晚于现在" });
      else if (at > Date.now() + SCHEDULE_MAX_DAYS * 86_400_000)
        ctx.addIssue({ code: "custom", path: ["until"], message: `最多开放 ${SCHEDULE_MAX_DAYS} 天` });
    }
    if (b.mode === "weekly") {
      if (!b.windows?.length) {
        ctx.addIssue({ code: "custom", path: ["windows"], message: "请至少添加一个时段" });
        return;
      }
      const empty = b.windows.findIndex((w) => START.test(w.start) && END.test(w.end) && windowSpan(w).length === 0);
      if (empty >= 0)
        ctx.addIssue({ code: "custom", path: ["windows", empty, "end"], message: "时段为空：结束时间等于开始时间" });
      else {
        const pair = b.windows.every((w) => START.test(w.start) && END.test(w.end)) && overlappingWindows(b.windows);
        if (pair)
          ctx.addIssue({
            code: "custom",
            path: ["windows", pair[1], "start"],
            message: `第 ${pair[1] + 1} 个时段与第 ${pair[0] + 1} 个时段重叠`,
          });
      }
    }
  });
export type TunnelScheduleBody = z.infer<typeof TunnelScheduleBody>;

/** The stored/answered schedule's schema (strict, as answers are). */
export const TunnelScheduleAnswer = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("until"), until: z.string().describe("ISO-8601 UTC") }),
  z.strictObject({
    kind: z.literal("weekly"),
    windows: z.array(z.strictObject({ day: z.number().int(), start: z.string(), end: z.string() })),
  }),
]);
