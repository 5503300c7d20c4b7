import { INCIDENT_MIN_MS, UPTIME_DAYS, type UptimeCause, type UptimeDay, type UptimeIncident } from "@burrow/contract";
import { addDays, DAY_MS, shanghaiDate, shanghaiDayStart } from "../../shared/time";

/*
 * Status changes → intervals → daily bars and incidents, in memory (pure: the tests' clock is the
 * `now` handed in). A subject's state holds from one change to its next; before its first known
 * change nothing is known, and unknown time counts neither up nor down.
 */

/** One recorded change, as read from uptime_changes. */
export interface Change {
  id: number;
  at: string;
  up: number;
  cause: string | null;
  node_id: number;
}

/** A stretch of one state (ms since the epoch); `end` is the next change or now. */
export interface Segment {
  start: number;
  end: number;
  up: boolean;
  cause: UptimeCause | null;
  node_id: number;
}

/** The 90 Shanghai days ending with `now`'s: [first day's start, now]. */
export function uptimeWindow(now: Date): { from: number; to: number; firstDay: string } {
  const firstDay = addDays(shanghaiDate(now), -(UPTIME_DAYS - 1));
  return { from: shanghaiDayStart(firstDay).getTime(), to: now.getTime(), firstDay };
}

/** Changes (oldest first, the last one before the window included) as segments up to `to`. */
export function segmentsOf(changes: readonly Change[], to: number): Segment[] {
  const sorted = [...changes].sort((a, b) => (a.at === b.at ? a.id - b.id : a.at < b.at ? -1 : 1));
  const out: Segment[] = [];
  sorted.forEach((c, i) => {
    const start = Date.parse(c.at);
    const end = Math.min(to, i + 1 < sorted.length ? Date.parse(sorted[i + 1].at) : to);
    if (end <= start) return;
    out.push({
      start,
      end,
      up: c.up === 1,
      cause: c.up === 1 ? null : ((c.cause ?? "client") as UptimeCause),
      node_id: c.node_id,
    });
  });
  return out;
}

/**
 * A tunnel's segments with its node's downtime laid over them: while the node it was on is down,
 * the tunnel is down ("node_down") whatever its own row said (frps unreachable: nobody reaches it,
 * and its status is not updated then). Time the node's health is unknown keeps the tunnel's state.
 */
export function overlayNodes(tunnel: readonly Segment[], nodes: ReadonlyMap<number, Segment[]>): Segment[] {
  const out: Segment[] = [];
  for (const s of tunnel) {
    let at = s.start;
    for (const n of nodes.get(s.node_id) ?? []) {
      if (n.up || n.end <= at || n.start >= s.end) continue;
      const from = Math.max(at, n.start);
      const to = Math.min(s.end, n.end);
      if (from > at) out.push({ ...s, start: at, end: from });
      out.push({ ...s, start: from, end: to, up: false, cause: "node_down" });
      at = to;
    }
    if (at < s.end) out.push({ ...s, start: at, end: s.end });
  }
  return out;
}

/** Two decimals, rounded down: any downtime shows below 100. */
const pct2 = (up: number, known: number): number | null => (known > 0 ? Math.floor((up / known) * 10000) / 100 : null);

/** The 90 daily bars (oldest first) and the whole window's %. */
export function dailyBars(segments: readonly Segment[], now: Date): { days: UptimeDay[]; pct: number | null } {
  const { firstDay, to } = uptimeWindow(now);
  const days: UptimeDay[] = [];
  let knownAll = 0;
  let downAll = 0;
  for (let i = 0; i < UPTIME_DAYS; i++) {
    const day = addDays(firstDay, i);
    const start = shanghaiDayStart(day).getTime();
    const end = Math.min(start + DAY_MS, to);
    let known = 0;
    let down = 0;
    for (const s of segments) {
      const overlap = Math.min(end, s.end) - Math.max(start, s.start);
      if (overlap <= 0) continue;
      known += overlap;
      if (!s.up) down += overlap;
    }
    knownAll += known;
    downAll += down;
    days.push({ day, pct: pct2(known - down, known), down_ms: down });
  }
  return { days, pct: pct2(knownAll - downAll, knownAll) };
}

/**
 * Outages longer than two minutes (INCIDENT_MIN_MS) that reach into the window, newest first: a run
 * of down segments, whatever their causes, is one outage with the cause it started with (a node
 * that comes back before its tunnels reconnect is one outage, "node_down"). One still going on at
 * `now` has no end.
 */
export function incidentsOf(segments: readonly Segment[], now: Date, ongoing: boolean): UptimeIncident[] {
  const { from, to } = uptimeWindow(now);
  const runs: { start: number; end: number; cause: UptimeCause }[] = [];
  for (const s of segments) {
    if (s.up) continue;
    const last = runs[runs.length - 1];
    if (last && last.end === s.start) last.end = s.end;
    else runs.push({ start: s.start, end: s.end, cause: s.cause ?? "client" });
  }
  return runs
    .filter((r) => r.end > from && r.end - r.start > INCIDENT_MIN_MS)
    .map((r) => {
      const open = ongoing && r.end === to;
      return {
        start: new Date(r.start).toISOString(),
        end: open ? null : new Date(r.end).toISOString(),
        duration_ms: r.end - r.start,
        cause: r.cause,
      };
    })
    .reverse();
}
