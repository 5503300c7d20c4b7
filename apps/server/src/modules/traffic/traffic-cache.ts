import type { EventBus } from "../../shared/events";
import { EventedCache } from "../../shared/loading-cache";
import { addDays, shanghaiDate } from "../../shared/time";

/** Entries expire after about this long (±25%) even without an event: a lost pub/sub message heals. */
const TTL_MS = 60_000;
/** The range /user/traffic shows by default, and the only one kept: the last this many days. */
export const DEFAULT_DAYS = 30;

/** What /user/traffic sums for one customer, range and tunnel filter (days with rows only). */
export interface TrafficSums {
  days: { day: string; traffic_in: number; traffic_out: number }[];
  tunnels: { tun_id: number; traffic_in: number; traffic_out: number }[];
  /** how many per-tunnel per-day rows the range holds: /user/traffic/rows' total */
  rows: number;
}

export interface TrafficKey {
  uid: number;
  start: string;
  end: string;
  tun_id?: number;
}

/**
 * A customer's traffic sums over the last DEFAULT_DAYS days (what /user/traffic shows first, and
 * /user/traffic/rows' total), kept in memory until they change: the rows change only when the
 * poller adds traffic, which announces the customers ("traffic.changed", after its commit).
 * Summing a month of a large customer's tunnels on every call was the call's whole cost
 * (docs/performance.md, fourth round). Any other range is summed on every call, so a customer cannot
 * fill memory with ranges; a new day is a new range. Names, statuses and the quota are read live.
 */
export class TrafficCache {
  private readonly cache: EventedCache<string, TrafficSums>;

  constructor(
    private readonly load: (key: TrafficKey) => Promise<TrafficSums>,
    events: EventBus,
    max = 10_000,
  ) {
    this.cache = new EventedCache((key) => load(JSON.parse(key.slice(key.indexOf("|") + 1))), TTL_MS, max, events);
    events.on("traffic.changed", ({ uids }) => {
      const changed = new Set(uids.map(String));
      this.cache.invalidateKeys((key) => changed.has(key.slice(0, key.indexOf("|"))));
    });
  }

  /** Whether `key`'s range is the one kept (the last DEFAULT_DAYS days). */
  keeps(key: TrafficKey): boolean {
    const today = shanghaiDate();
    return key.end === today && key.start === addDays(today, -(DEFAULT_DAYS - 1));
  }

  get(key: TrafficKey): TrafficSums | Promise<TrafficSums> {
    if (!this.keeps(key)) return this.load(key);
    const { uid, start, end, tun_id } = key;
    return this.cache.get(`${uid}|${JSON.stringify({ uid, start, end, tun_id })}`);
  }

  get size(): number {
    return this.cache.size;
  }
}
