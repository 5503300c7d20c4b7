import type { Selectable } from "kysely";
import { DAY_MS } from "../../shared/time";
import type { ProxyCounterTable } from "./frp.table";
/**
 * The poller's billing arithmetic, free of I/O: what frps's "today" counters say now, against
 * the counters stored at the last look, becomes credits per day, the counter rows to store and
 * what happened on the node (a restart, a rollover away from Asia/Shanghai midnight). Every input
 * comes from frps, which Burrow does not trust: values the dashboard client could not validate are
 * null and leave the proxy untouched this round, and an increase no link could have carried in
 * the time since the last accepted counters is refused.
 */

/** One proxy as the dashboard showed it; null = missing or wrongly typed this round. */
export interface ProxySample {
  name: string;
  tun_id: number;
  uid: number;
  todayIn: number | null;
  todayOut: number | null;
  curConns: number | null;
  online: boolean | null;
  lastStartTime: string | null;
  lastCloseTime: string | null;
}

/** A stored `proxy_counters` row (numbers already converted from the driver), without its key. */
export type StoredCounter = Omit<Selectable<ProxyCounterTable>, "node_id" | "proxy_name">;

/** A `proxy_counters` row to upsert (node_id added by the writer). */
export interface CounterRow extends Omit<StoredCounter, "tun_id"> {
  proxy_name: string;
  tun_id: number;
}

export interface Credit {
  tun_id: number;
  uid: number;
  day: string;
  traffic_in: number;
  traffic_out: number;
}

export interface CounterInput {
  /** the Asia/Shanghai day of the poll */
  day: string;
  now: Date;
  samples: ProxySample[];
  counters: ReadonlyMap<string, StoredCounter>;
  /** the server-wide "today" totals now, null when the dashboard gave no valid ones */
  server: { in: number; out: number } | null;
  /** the totals of the previous successful poll, when it ran on the same day */
  prevServer: { in: number; out: number } | null;
  /** the most bytes per second (each direction) the proxy can carry on this node */
  maxRate: (s: ProxySample) => number;
  /** the node's frps rotates its day away from Shanghai midnight: bill deltas across Burrow's days */
  skewed: boolean;
  /** frps's "yesterday" bucket of proxies listed as suspects by an earlier pass */
  histories?: ReadonlyMap<string, { in: number; out: number }>;
  /** when the node's previous successful poll ran (connections seen open now opened after it) */
  prevPollAt?: string | null;
}

/** A proxy with connections open: frps counts their bytes only when they close. */
export interface OpenProxy {
  name: string;
  uid: number;
  tun_id: number;
  /** connections have been open without a pause since (an upper bound of the oldest one's age) */
  since: string;
  /** bytes credited since then: the proxy's one bandwidth bucket carried those, not the open ones */
  credited: number;
}

export interface Refusal {
  name: string;
  in: number;
  out: number;
  allowed: number;
}

export interface CounterPlan {
  credits: Credit[];
  rows: CounterRow[];
  /**
   * frps restarted since the last look: an entry started again and none is the one seen before.
   * A new entry beside unchanged ones (frps purged it after 7 days offline, `DELETE
   * /api/proxies?status=offline` removed it, or it came back as another type) starts only itself again.
   */
  restarted: boolean;
  /** frps's counters rotated on the same entry during a Shanghai day (its day is not Burrow's) */
  rotated: boolean;
  /** rolled proxies whose earlier tail is still pending: resolve those first, then plan again */
  staleTails: string[];
  /** same entry, same day, counters went back: a restart or a rotation; their history tells which */
  suspects: string[];
  /** proxies whose increase is more than the link allows in the time since the last accepted look */
  refused: Refusal[];
  /** proxies whose counters could not be read this round */
  unknown: string[];
  /** proxies with connections open now */
  open: OpenProxy[];
}

/** Bytes that flowed since `prev` given the counter now; a counter that went back was reset. */
export const counterDelta = (prev: number, cur: number): number => (cur >= prev ? cur - prev : cur);

export const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/** Room over the nominal rate: frp's limiter bursts, the clocks of Burrow and the node differ. */
const RATE_SLACK = 2;
/** Always allowed on top, so that a short interval never refuses a small real increase. */
const BURST_BYTES = 4 * 1024 * 1024;

/** The most bytes each direction may have grown by in `elapsedMs` at `rate` bytes/s. */
export function allowedIncrease(rate: number, elapsedMs: number): number {
  return Math.floor((rate * Math.max(0, elapsedMs) * RATE_SLACK) / 1000) + BURST_BYTES;
}

/**
 * Plans one poll of a node. Per proxy:
 * - unknown counters (null) → nothing this round, the stored row stays;
 * - no stored row → today's counters are all new (a new proxy, or one that moved here);
 * - same day, counters grew → the growth;
 * - same day, counters went back (or the server totals did, or the stats entry is fresh) → the
 *   entry started again and everything it shows is new; unless the entry is the same and its
 *   history holds the old counters in "yesterday": then frps rotated its day here, mid-Shanghai-day,
 *   and the bytes are yesterday's rest plus today's. frps itself restarted only when no entry is
 *   the one seen before (a restart loses them all); one new entry among unchanged ones is a purge,
 *   a `DELETE /api/proxies?status=offline` or a type change, and touches no other proxy;
 * - a new Shanghai day → today's counters go to today and the last day's tail is noted (resolved
 *   later from the 7-day history); on a skewed node, whose frps has not rotated, the growth.
 * An increase above `allowedIncrease` since the stored row was last written is refused: no credit
 * and the row stays, so the allowance grows with time and a real counter is taken later.
 */
export function planCounters(input: CounterInput): CounterPlan {
  const { day, now, counters, histories } = input;
  const plan: CounterPlan = {
    credits: [],
    rows: [],
    restarted: false,
    rotated: false,
    staleTails: [],
    suspects: [],
    refused: [],
    unknown: [],
    open: [],
  };
  type Known = ProxySample & { todayIn: number; todayOut: number; lastStartTime: string; lastCloseTime: string };
  const known: Known[] = [];
  for (const s of input.samples) {
    if (s.todayIn === null || s.todayOut === null || s.lastStartTime === null || s.lastCloseTime === null)
      plan.unknown.push(s.name);
    else known.push(s as Known);
  }

  const wentBack = (s: Known, c: StoredCounter) => s.todayIn < c.last_in || s.todayOut < c.last_out;
  /** A new stats entry: started at another time and never closed (frps keeps the close time across reconnects). */
  const fresh = (s: Known, c: StoredCounter) =>
    c.start_time !== "" && s.lastStartTime !== c.start_time && s.lastCloseTime === "";
  const sameEntry = (s: Known, c: StoredCounter) => c.start_time !== "" && s.lastStartTime === c.start_time;
  /** frps rotated this entry's day since the last look: its "yesterday" holds at least the old counters. */
  const rotation = (s: Known, c: StoredCounter) => {
    const h = histories?.get(s.name);
    return h && h.in >= c.last_in && h.out >= c.last_out && h.in + h.out > 0 ? h : null;
  };

  for (const s of known) {
    const c = counters.get(s.name);
    if (c && c.day === day && wentBack(s, c) && sameEntry(s, c)) {
      if (!histories?.has(s.name)) plan.suspects.push(s.name);
      else if (rotation(s, c)) plan.rotated = true;
    }
  }
  // Server totals go back at a rotation too: only a restart if no entry shows a rotation.
  const serverReset =
    !plan.rotated &&
    input.server !== null &&
    input.prevServer !== null &&
    (input.server.in < input.prevServer.in || input.server.out < input.prevServer.out);

  /** some entry started again */
  let anyReset = false;
  /** some entry is still the one seen before: frps did not restart, whatever else started again */
  let kept = false;
  for (const s of known) {
    const c = counters.get(s.name);
    const credits: Credit[] = [];
    const credit = (d: string, i: number, o: number) => {
      if (i > 0 || o > 0) credits.push({ tun_id: s.tun_id, uid: s.uid, day: d, traffic_in: i, traffic_out: o });
    };
    let reset = false;
    let rolled = false;
    if (!c) {
      credit(day, s.todayIn, s.todayOut);
    } else if (c.day === day) {
      const h = wentBack(s, c) && sameEntry(s, c) ? rotation(s, c) : null;
      if (h) credit(day, h.in - c.last_in + s.todayIn, h.out - c.last_out + s.todayOut);
      // The server totals only speak for an entry whose start time is unknown: one whose own
      // counters neither went back nor restarted is billed its difference, whatever the totals
      // say (a single bad /serverinfo answer re-billed every proxy's whole day).
      else if (wentBack(s, c) || fresh(s, c) || (serverReset && !sameEntry(s, c))) {
        reset = true;
        credit(day, s.todayIn, s.todayOut);
      } else credit(day, s.todayIn - c.last_in, s.todayOut - c.last_out);
    } else if (input.skewed) {
      // frps's day is not Burrow's: at Burrow's midnight its counters simply go on.
      if (sameEntry(s, c) && !wentBack(s, c)) credit(day, s.todayIn - c.last_in, s.todayOut - c.last_out);
      else credit(day, s.todayIn, s.todayOut);
    } else {
      credit(day, s.todayIn, s.todayOut);
      // A proxy that was offline at the last look and has not started since carried nothing: no tail.
      const quiet = c.online === 0 && s.lastStartTime === c.start_time;
      rolled = daysBetween(c.day, day) <= 6 && !quiet;
    }

    const elapsed = c ? now.getTime() - Date.parse(c.updated_at) : DAY_MS;
    const allowed = allowedIncrease(input.maxRate(s), Number.isFinite(elapsed) ? elapsed : DAY_MS);
    const inSum = credits.reduce((n, x) => n + x.traffic_in, 0);
    const outSum = credits.reduce((n, x) => n + x.traffic_out, 0);
    if (inSum > allowed || outSum > allowed) {
      plan.refused.push({ name: s.name, in: inSum, out: outSum, allowed });
      continue;
    }
    if (rolled && c?.tail_day) plan.staleTails.push(s.name);
    if (reset) anyReset = true;
    else if (c && sameEntry(s, c)) kept = true;
    plan.credits.push(...credits);

    // The tail a row carries: a new one for a rolled proxy, else whatever is pending.
    const tail =
      rolled && c
        ? {
            tail_day: c.day,
            tail_until: day,
            tail_in: c.last_in,
            tail_out: c.last_out,
            // A fresh entry's history holds only what came after the restart: all of it is new.
            tail_fresh: fresh(s, c) ? 1 : 0,
          }
        : {
            tail_day: c?.tail_day ?? null,
            tail_until: c?.tail_until ?? null,
            tail_in: c?.tail_in ?? 0,
            tail_out: c?.tail_out ?? 0,
            tail_fresh: c?.tail_fresh ?? 0,
          };
    const online = s.online === null ? (c?.online ?? 0) : s.online ? 1 : 0;
    const curConns = s.curConns ?? c?.cur_conns ?? 0;
    // Connections open at the last look and now: the same stretch goes on, and what was credited
    // meanwhile went through the proxy's bandwidth too. Newly open ones opened after the last poll.
    let connsSince: string | null = null;
    let connsCredit = 0;
    if (curConns > 0) {
      if (c?.conns_since && c.cur_conns > 0) {
        connsSince = c.conns_since;
        connsCredit = c.conns_credit + inSum + outSum;
      } else connsSince = input.prevPollAt ?? now.toISOString();
      plan.open.push({ name: s.name, uid: s.uid, tun_id: s.tun_id, since: connsSince, credited: connsCredit });
    }
    if (
      !c ||
      c.day !== day ||
      c.last_in !== s.todayIn ||
      c.last_out !== s.todayOut ||
      c.cur_conns !== curConns ||
      c.online !== online ||
      c.tun_id !== s.tun_id ||
      c.start_time !== s.lastStartTime ||
      c.conns_since !== connsSince ||
      c.conns_credit !== connsCredit
    ) {
      plan.rows.push({
        proxy_name: s.name,
        tun_id: s.tun_id,
        day,
        last_in: s.todayIn,
        last_out: s.todayOut,
        cur_conns: curConns,
        online,
        start_time: s.lastStartTime,
        ...tail,
        updated_at: now.toISOString(),
        conns_since: connsSince,
        conns_credit: connsCredit,
      });
    }
  }
  // Only an entry that really started again makes this a restart (which forgets the counters of
  // proxies frps no longer shows): lower server totals alone are not evidence enough, and neither
  // is one entry that started again while another is still the one seen before.
  plan.restarted = anyReset && !kept;
  return plan;
}

/**
 * The most bytes an open stretch of connections can hold uncounted: the proxy's one token bucket
 * (rate = burst = `rate` bytes/s, both directions, all connections) carried at most
 * rate × (age + 1 s) since it began, minus what was credited meanwhile.
 */
export function inflightBytes(o: OpenProxy, rate: number, now: Date): number {
  const ageMs = Math.max(0, now.getTime() - Date.parse(o.since));
  if (!Number.isFinite(ageMs)) return 0;
  return Math.max(0, Math.floor((rate * (ageMs + 1000)) / 1000) - o.credited);
}
