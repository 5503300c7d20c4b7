/**
 * 定时开放's decision (issue 33 item 7): whether a tunnel's schedule lets it carry traffic at an
 * instant, when that next changes, and the words for both. Pure arithmetic over epoch
 * milliseconds: every caller passes its `now`, so tests move the clock. Asia/Shanghai is UTC+8
 * all year (no DST), so a week is always 7 × 24 h and a window is the same span every week.
 */
import { type TunnelSchedule, WEEK_MINUTES, WeekdayLabel, windowSpan } from "@burrow/contract";
import type { TunnelEntry } from "./entries";

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const WEEK_MS = WEEK_MINUTES * MINUTE_MS;
const SHANGHAI_MS = 8 * 3_600_000;
/** 1970-01-05 00:00 in Shanghai, a Monday: weeks are counted from it. */
const MONDAY_MS = 4 * DAY_MS - SHANGHAI_MS;

const mod = (a: number, m: number) => ((a % m) + m) % m;

/** Milliseconds since the Shanghai week began (Monday 00:00). */
export function weekOffsetMs(at: number): number {
  return mod(at - MONDAY_MS, WEEK_MS);
}

export interface ScheduleState {
  open: boolean;
  /** epoch ms when `open` next flips; null: never (ended for good, or open all week) */
  next: number | null;
}

/** Whether the schedule lets the tunnel run at `now`, and until when. */
export function scheduleState(s: TunnelSchedule, now: number): ScheduleState {
  if (s.kind === "until") {
    const end = Date.parse(s.until);
    return now < end ? { open: true, next: end } : { open: false, next: null };
  }
  const spans = s.windows.map(windowSpan).filter((w) => w.length > 0);
  const inside = (at: number) => {
    const off = weekOffsetMs(at);
    return spans.find((w) => mod(off - w.start * MINUTE_MS, WEEK_MS) < w.length * MINUTE_MS);
  };
  const first = inside(now);
  if (first) {
    // Windows that touch (Mon 20:00–24:00, Tue 00:00–08:00) close once, at the last one's end.
    let end = now - mod(weekOffsetMs(now) - first.start * MINUTE_MS, WEEK_MS) + first.length * MINUTE_MS;
    for (let i = 0; i < spans.length; i++) {
      const next = inside(end);
      if (!next) return { open: true, next: end };
      end += next.length * MINUTE_MS - mod(weekOffsetMs(end) - next.start * MINUTE_MS, WEEK_MS);
    }
    return { open: true, next: null };
  }
  if (spans.length === 0) return { open: false, next: null };
  const off = weekOffsetMs(now);
  let wait = WEEK_MS;
  for (const w of spans) wait = Math.min(wait, mod(w.start * MINUTE_MS - off, WEEK_MS));
  return { open: false, next: now + wait };
}

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * An instant as a Shanghai wall clock, as short as `now` allows: "18:00" the same day, "周一
 * 09:00" within the week, "下周一 09:00" for the same weekday a week on.
 */
export function scheduleWhen(at: number, now: number): string {
  const wall = new Date(at + SHANGHAI_MS);
  const hm = `${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}`;
  const day = (t: number) => Math.floor((t + SHANGHAI_MS) / DAY_MS);
  const days = day(at) - day(now);
  if (days === 0) return hm;
  const weekday = WeekdayLabel[wall.getUTCDay() === 0 ? 7 : wall.getUTCDay()];
  return `${days >= 7 ? "下" : ""}${weekday} ${hm}`;
}

/** The list's words: "将于 18:00 关闭", "将于 周一 09:00 开放", "定时开放已结束"; null when always open. */
export function scheduleNote(s: TunnelSchedule, now: number): string | null {
  const { open, next } = scheduleState(s, now);
  if (next === null) return open ? null : "定时开放已结束";
  return `将于 ${scheduleWhen(next, now)} ${open ? "关闭" : "开放"}`;
}

/**
 * Why the tunnel's schedule keeps it closed at `now` (the reason frpc logs, with when it opens
 * next), or null when it may run.
 */
export function scheduleBlock(t: TunnelEntry, now: number): string | null {
  if (!t.schedule) return null;
  const { open, next } = scheduleState(t.schedule, now);
  if (open) return null;
  return next === null
    ? `隧道 ${t.tun_name} 的定时开放已结束`
    : `隧道 ${t.tun_name} 不在开放时间，将于 ${scheduleWhen(next, now)} 开放`;
}
