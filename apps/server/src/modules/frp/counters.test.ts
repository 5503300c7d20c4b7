import { describe, expect, it } from "vitest";
import {
  allowedIncrease,
  type CounterInput,
  type CounterPlan,
  counterDelta,
  inflightBytes,
  type ProxySample,
  planCounters,
  type StoredCounter,
} from "./counters";
import { parseProxyStat } from "./dashboard-client";

const DAY = "2026-11-24";
const YESTERDAY = "2026-11-23";
const NOW = new Date("2026-11-24T04:00:00Z"); // noon in Shanghai
const LAST_POLL = new Date(NOW.getTime() - 30_000).toISOString();
const NAME = "u_7.t_42";
/** 100 Mbit/s in bytes per second. */
const RATE = 12_500_000;

const stored = (o: Partial<StoredCounter> = {}): StoredCounter => ({
  tun_id: 42,
  day: DAY,
  last_in: 1000,
  last_out: 2000,
  cur_conns: 1,
  online: 1,
  start_time: "11-24 08:00:00",
  tail_day: null,
  tail_until: null,
  tail_in: 0,
  tail_out: 0,
  tail_fresh: 0,
  updated_at: LAST_POLL,
  conns_since: null,
  conns_credit: 0,
  ...o,
});

interface Sample {
  todayIn?: number | null;
  todayOut?: number | null;
  curConns?: number | null;
  online?: boolean | null;
  lastStartTime?: string | null;
  lastCloseTime?: string | null;
}

function plan(o: {
  sample?: Sample;
  counter?: StoredCounter | null;
  server?: CounterInput["server"];
  prevServer?: CounterInput["prevServer"];
  skewed?: boolean;
  history?: { in: number; out: number };
  now?: Date;
  prevPollAt?: string | null;
}) {
  const counters = new Map<string, StoredCounter>();
  if (o.counter !== null) counters.set(NAME, o.counter ?? stored());
  return planCounters({
    day: DAY,
    now: o.now ?? NOW,
    samples: [
      {
        name: NAME,
        tun_id: 42,
        uid: 7,
        todayIn: 1500,
        todayOut: 2600,
        curConns: 1,
        online: true,
        lastStartTime: "11-24 08:00:00",
        lastCloseTime: "",
        ...o.sample,
      },
    ],
    counters,
    server: o.server ?? { in: 10_000, out: 10_000 },
    prevServer: o.prevServer ?? { in: 9_000, out: 9_000 },
    maxRate: () => RATE,
    skewed: o.skewed ?? false,
    histories: o.history ? new Map([[NAME, o.history]]) : undefined,
    prevPollAt: o.prevPollAt,
  });
}

const credited = (p: ReturnType<typeof plan>) => p.credits.map((c) => [c.day, c.traffic_in, c.traffic_out]);

describe("planCounters", () => {
  const cases: {
    name: string;
    input: Parameters<typeof plan>[0];
    credits: [string, number, number][];
    restarted?: boolean;
    rotated?: boolean;
    suspects?: string[];
    tail?: Partial<StoredCounter> | null;
    row?: boolean;
  }[] = [
    { name: "first sight: today's counters are all new", input: { counter: null }, credits: [[DAY, 1500, 2600]] },
    { name: "same day, counters grew: the growth", input: {}, credits: [[DAY, 500, 600]] },
    {
      name: "same day, no change: nothing, no row written",
      input: { sample: { todayIn: 1000, todayOut: 2000 }, counter: stored({ conns_since: LAST_POLL }) },
      credits: [],
      row: false,
    },
    {
      name: "counters went back on the same entry: a suspect until its history is read",
      input: { sample: { todayIn: 10, todayOut: 20 } },
      credits: [[DAY, 10, 20]],
      restarted: true,
      suspects: [NAME],
    },
    {
      name: "counters went back, history empty: a restart, everything shown is new",
      input: { sample: { todayIn: 10, todayOut: 20 }, history: { in: 0, out: 0 } },
      credits: [[DAY, 10, 20]],
      restarted: true,
      suspects: [],
    },
    {
      name: "counters went back, yesterday holds the old counters: frps rotated here (another timezone)",
      input: {
        sample: { todayIn: 10, todayOut: 20 },
        history: { in: 1200, out: 2100 },
        server: { in: 5, out: 5 },
      },
      credits: [[DAY, 210, 120]],
      restarted: false,
      rotated: true,
    },
    {
      name: "the only entry is fresh (new start, never closed): all of it is new, and with no entry left as it was, a restart",
      input: { sample: { lastStartTime: "11-24 11:59:00" } },
      credits: [[DAY, 1500, 2600]],
      restarted: true,
    },
    {
      name: "a reconnect (new start, entry closed before): frps kept the counters, the growth",
      input: { sample: { lastStartTime: "11-24 11:59:00", lastCloseTime: "11-24 11:58:00" } },
      credits: [[DAY, 500, 600]],
      restarted: false,
    },
    {
      name: "server totals went back, entry of unknown start: taken as a restart",
      input: { server: { in: 100, out: 100 }, counter: stored({ start_time: "" }) },
      credits: [[DAY, 1500, 2600]],
      restarted: true,
    },
    {
      name: "server totals went back but the entry is the same and grew: its difference only (a bad total bills nothing twice)",
      input: { server: { in: 0, out: 0 }, prevServer: { in: 5_000_000, out: 5_000_000 } },
      credits: [[DAY, 500, 600]],
      restarted: false,
    },
    {
      name: "server totals unknown: no restart is inferred",
      input: { server: null },
      credits: [[DAY, 500, 600]],
      restarted: false,
    },
    {
      name: "rollover: today's counters to today, yesterday's last counters noted as the tail",
      input: { counter: stored({ day: YESTERDAY, updated_at: "2026-11-23T15:50:00Z" }), sample: { todayIn: 30 } },
      credits: [[DAY, 30, 2600]],
      tail: { tail_day: YESTERDAY, tail_until: DAY, tail_in: 1000, tail_out: 2000, tail_fresh: 0 },
    },
    {
      name: "rollover of a fresh entry: its whole history is new",
      input: {
        counter: stored({ day: YESTERDAY, updated_at: "2026-11-23T15:50:00Z" }),
        sample: { lastStartTime: "11-24 01:00:00" },
      },
      credits: [[DAY, 1500, 2600]],
      tail: { tail_day: YESTERDAY, tail_fresh: 1 },
    },
    {
      name: "multi-day gap: the tail spans to today, days between are read later",
      input: { counter: stored({ day: "2026-11-20", updated_at: "2026-11-20T04:00:00Z" }) },
      credits: [[DAY, 1500, 2600]],
      tail: { tail_day: "2026-11-20", tail_until: DAY },
    },
    {
      name: "gap beyond frps's 7-day history: no tail",
      input: { counter: stored({ day: "2026-11-10", updated_at: "2026-11-10T04:00:00Z" }) },
      credits: [[DAY, 1500, 2600]],
      tail: { tail_day: null },
    },
    {
      name: "rollover of a proxy offline since before: no tail",
      input: { counter: stored({ day: YESTERDAY, online: 0, updated_at: "2026-11-23T04:00:00Z" }) },
      credits: [[DAY, 1500, 2600]],
      tail: { tail_day: null },
    },
    {
      name: "skewed node at Burrow's midnight: frps has not rotated, the growth and no tail",
      input: { counter: stored({ day: YESTERDAY, updated_at: "2026-11-23T15:59:00Z" }), skewed: true },
      credits: [[DAY, 500, 600]],
      tail: { tail_day: null },
    },
    {
      name: "a proxy that moved here from another node (no row on this node): all new",
      input: { counter: null, sample: { lastStartTime: "11-24 11:00:00" } },
      credits: [[DAY, 1500, 2600]],
      restarted: false,
    },
    {
      name: "a proxy back on a node it left long ago: today's counters, no stale tail",
      input: {
        counter: stored({ day: "2026-10-01", updated_at: "2026-10-01T04:00:00Z" }),
        sample: { lastStartTime: "11-24 11:00:00", lastCloseTime: "10-01 13:00:00" },
      },
      credits: [[DAY, 1500, 2600]],
      tail: { tail_day: null },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const p = plan(c.input);
      expect(credited(p)).toEqual(c.credits);
      if (c.restarted !== undefined) expect(p.restarted).toBe(c.restarted);
      expect(p.rotated).toBe(c.rotated ?? false);
      if (c.suspects) expect(p.suspects).toEqual(c.suspects);
      if (c.row === false) expect(p.rows).toEqual([]);
      else expect(p.rows).toHaveLength(1);
      if (c.tail) expect(p.rows[0]).toMatchObject(c.tail);
      expect(p.refused).toEqual([]);
    });
  }

  it("leaves a proxy whose counters are unknown untouched: no credit, no row, no reset", () => {
    for (const sample of [{ todayIn: null }, { todayOut: null }, { lastStartTime: null }, { lastCloseTime: null }]) {
      const p = plan({ sample: { ...sample, todayIn: sample.todayIn === null ? null : 10 } });
      expect(p).toMatchObject({ credits: [], rows: [], restarted: false, unknown: [NAME], suspects: [] });
    }
  });

  it("keeps the stored status and connections when only those are unknown", () => {
    const p = plan({ sample: { online: null, curConns: null } });
    expect(credited(p)).toEqual([[DAY, 500, 600]]);
    expect(p.rows[0]).toMatchObject({ online: 1, cur_conns: 1 });
  });

  it("refuses an increase above the link's rate in the elapsed time, and takes it once time allows", () => {
    const huge = allowedIncrease(RATE, 30_000) + 1;
    const p = plan({ sample: { todayIn: 1000 + huge } });
    expect(p.credits).toEqual([]);
    expect(p.rows).toEqual([]);
    expect(p.refused).toEqual([{ name: NAME, in: huge, out: 600, allowed: huge - 1 }]);
    // The stored row stays, so the allowance grows: a real counter is billed later, once.
    const later = plan({ sample: { todayIn: 1000 + huge }, now: new Date(NOW.getTime() + 60_000) });
    expect(credited(later)).toEqual([[DAY, huge, 600]]);
    // A "restart" to an impossible value is refused too.
    expect(plan({ sample: { todayIn: 2 ** 52, lastStartTime: "11-24 11:59:00" } }).refused).toHaveLength(1);
  });

  it("does not treat a late answer as a reset when the clock went back", () => {
    const p = plan({ now: new Date(NOW.getTime() - 3_600_000) });
    expect(credited(p)).toEqual([[DAY, 500, 600]]);
  });

  it("notes rolled proxies whose earlier tail is still pending", () => {
    const p = plan({
      counter: stored({ day: YESTERDAY, tail_day: "2026-11-22", tail_until: YESTERDAY, updated_at: LAST_POLL }),
    });
    expect(p.staleTails).toEqual([NAME]);
  });

  it("tracks how long connections have been open and what was credited meanwhile", () => {
    const since = "2026-11-24T03:00:00.000Z";
    // Newly open: they opened after the previous poll.
    const fresh = plan({ counter: stored({ cur_conns: 0 }), sample: { curConns: 2 }, prevPollAt: LAST_POLL });
    expect(fresh.open).toEqual([{ name: NAME, uid: 7, tun_id: 42, since: LAST_POLL, credited: 0 }]);
    expect(fresh.rows[0]).toMatchObject({ conns_since: LAST_POLL, conns_credit: 0 });
    // Still open: the stretch goes on and this poll's credit is added.
    const on = plan({ counter: stored({ conns_since: since, conns_credit: 100 }) });
    expect(on.open).toEqual([{ name: NAME, uid: 7, tun_id: 42, since, credited: 1200 }]);
    // Closed: nothing open, the stretch ends.
    const off = plan({ counter: stored({ conns_since: since, conns_credit: 100 }), sample: { curConns: 0 } });
    expect(off.open).toEqual([]);
    expect(off.rows[0]).toMatchObject({ conns_since: null, conns_credit: 0 });
    // Unknown connection count: the stored one stands.
    expect(plan({ counter: stored({ conns_since: since }), sample: { curConns: null } }).open).toHaveLength(1);
  });

  it("bounds the bytes open connections can hold by the bucket's rate over their age, less what was credited", () => {
    const o = { name: NAME, uid: 7, tun_id: 42, since: "2026-11-24T03:59:00.000Z", credited: 0 };
    expect(inflightBytes(o, 125_000, NOW)).toBe(125_000 * 61);
    expect(inflightBytes({ ...o, credited: 125_000 * 60 }, 125_000, NOW)).toBe(125_000);
    expect(inflightBytes({ ...o, credited: 10 ** 12 }, 125_000, NOW)).toBe(0);
    expect(inflightBytes({ ...o, since: "later" }, 125_000, NOW)).toBe(0);
  });

  it("keeps counter arithmetic: a counter that went back was reset", () => {
    expect(counterDelta(100, 150)).toBe(50);
    expect(counterDelta(100, 30)).toBe(30);
    expect(counterDelta(0, 0)).toBe(0);
  });
});

describe("a new stats entry beside unchanged ones: frps purged or deleted it, or it changed type", () => {
  const OTHER = "u_7.t_43";
  const NEW_START = "11-24 11:59:00";
  const sample = (name: string, o: Sample = {}): ProxySample => ({
    name,
    tun_id: name === NAME ? 42 : 43,
    uid: 7,
    todayIn: 1500,
    todayOut: 2600,
    curConns: 0,
    online: true,
    lastStartTime: "11-24 08:00:00",
    lastCloseTime: "",
    ...o,
  });
  /** NAME and OTHER on one node; by default NAME's entry is new and OTHER's is the one seen before, grown. */
  const both = (
    o: { mine?: Sample; other?: Sample; counter?: StoredCounter; server?: CounterInput["server"] } = {},
  ): CounterPlan =>
    planCounters({
      day: DAY,
      now: NOW,
      samples: [sample(NAME, { lastStartTime: NEW_START, ...o.mine }), sample(OTHER, o.other)],
      counters: new Map([
        [NAME, o.counter ?? stored()],
        [OTHER, stored({ tun_id: 43 })],
      ]),
      server: o.server ?? { in: 10_000, out: 10_000 },
      prevServer: { in: 9_000, out: 9_000 },
      maxRate: () => RATE,
      skewed: false,
    });
  const byName = (p: CounterPlan) =>
    Object.fromEntries(p.credits.map((c) => [c.tun_id, [c.day, c.traffic_in, c.traffic_out]]));

  it("starts only that entry again: its counters are all new, the other proxy's growth is billed, no restart", () => {
    const p = both();
    expect(byName(p)).toEqual({ 42: [DAY, 1500, 2600], 43: [DAY, 500, 600] });
    expect(p.restarted).toBe(false);
    expect(p.rows.find((r) => r.proxy_name === NAME)).toMatchObject({ start_time: NEW_START, last_in: 1500 });
  });

  it("is no restart either when the unchanged entry is offline and carried nothing", () => {
    const p = both({ other: { todayIn: 1000, todayOut: 2000, online: false, lastCloseTime: "11-24 10:00:00" } });
    expect(byName(p)).toEqual({ 42: [DAY, 1500, 2600] });
    expect(p.restarted).toBe(false);
  });

  it("keeps the entry's pending tail (an earlier day still to be read from the history) and its open stretch", () => {
    const since = "2026-11-24T03:00:00.000Z";
    const p = both({
      counter: stored({
        tail_day: YESTERDAY,
        tail_until: DAY,
        tail_in: 900,
        tail_out: 800,
        conns_since: since,
        conns_credit: 100,
      }),
      mine: { curConns: 1 },
    });
    expect(p.restarted).toBe(false);
    expect(p.rows.find((r) => r.proxy_name === NAME)).toMatchObject({
      tail_day: YESTERDAY,
      tail_until: DAY,
      tail_in: 900,
      tail_out: 800,
      tail_fresh: 0,
      conns_since: since,
      conns_credit: 100 + 1500 + 2600,
    });
    expect(p.open).toEqual([{ name: NAME, uid: 7, tun_id: 42, since, credited: 100 + 1500 + 2600 }]);
  });

  it("is a restart when every entry is new, as the server totals say too", () => {
    const p = both({
      other: { lastStartTime: "11-24 11:59:01", todayIn: 10, todayOut: 20 },
      server: { in: 5, out: 5 },
    });
    expect(byName(p)).toEqual({ 42: [DAY, 1500, 2600], 43: [DAY, 10, 20] });
    expect(p.restarted).toBe(true);
  });

  it("is no restart when the server totals went back but the other entry is still the one seen before", () => {
    const p = both({ server: { in: 5, out: 5 } });
    expect(byName(p)).toEqual({ 42: [DAY, 1500, 2600], 43: [DAY, 500, 600] });
    expect(p.restarted).toBe(false);
  });
});

describe("dashboard values (untrusted)", () => {
  const entry = (o: Record<string, unknown>) =>
    parseProxyStat(
      {
        name: NAME,
        todayTrafficIn: 1000,
        todayTrafficOut: 2000,
        curConns: 1,
        status: "online",
        lastStartTime: "11-24 08:00:00",
        lastCloseTime: "",
        ...o,
      },
      "tcp",
    );
  const bad: [string, unknown][] = [
    ["a string", "1000"],
    ["1e300", 1e300],
    ["a negative", -5],
    ["a fraction", 1.5],
    ["above 2^53", 2 ** 53],
    ["null", null],
    ["an object", { n: 1 }],
    ["NaN-like", "NaN"],
  ];
  for (const [what, v] of bad) {
    it(`reads ${what} as unknown, never 0`, () => {
      expect(entry({ todayTrafficIn: v })?.todayIn).toBeNull();
      expect(entry({ todayTrafficOut: v })?.todayOut).toBeNull();
      expect(entry({ curConns: v })?.curConns).toBeNull();
    });
  }
  it("reads a missing counter as unknown and a valid one as itself", () => {
    expect(entry({ todayTrafficIn: undefined })?.todayIn).toBeNull();
    expect(entry({})).toMatchObject({ todayIn: 1000, todayOut: 2000, online: true, lastCloseTime: "" });
    expect(entry({ status: 1 })?.online).toBeNull();
    expect(entry({ lastStartTime: 5 })?.lastStartTime).toBeNull();
    expect(entry({ name: 5 })).toBeNull();
    expect(parseProxyStat("x", "tcp")).toBeNull();
  });
});
