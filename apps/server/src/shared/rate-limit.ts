import type { Redis } from "ioredis";

export interface RateLimitResult {
  allowed: boolean;
  /** hits in the current window including this one */
  count: number;
  retryAfterSec: number;
}

/** Fixed-window counters. In-process by default; shared through Redis when REDIS_URL is set. */
export interface RateLimiter {
  hit(key: string, limit: number, windowSec: number): Promise<RateLimitResult>;
  /** current count without counting a hit */
  peek(key: string): Promise<number>;
  reset(key: string): Promise<void>;
  /** takes back one hit of the current window (an attempt that turned out not to count); never below 0 */
  undo(key: string): Promise<void>;
}

/**
 * The key a client address is limited under: an IPv4 address as is (an IPv4-mapped IPv6 address
 * as its IPv4), an IPv6 address by its /64 — the block one subscriber gets, whose other 2^64
 * addresses would otherwise each be a fresh budget.
 */
export function clientKey(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1];
  if (!ip.includes(":")) return ip;
  const [head, tail = ""] = ip.toLowerCase().split("%")[0].split("::");
  const left = head ? head.split(":") : [];
  const right = ip.includes("::") ? (tail ? tail.split(":") : []) : [];
  const groups = ip.includes("::") ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/** Keys past which the in-process limiter drops its oldest counters (use Redis where that matters). */
const MAX_KEYS = 200_000;
/** How often expired counters are swept, at most. */
const SWEEP_EVERY_MS = 60_000;

export function memoryRateLimiter(opts: { maxKeys?: number } = {}): RateLimiter {
  const maxKeys = opts.maxKeys ?? MAX_KEYS;
  const windows = new Map<string, { count: number; resetAt: number }>();
  let lastSweep = Date.now();
  const current = (key: string) => {
    const w = windows.get(key);
    if (w && w.resetAt <= Date.now()) {
      windows.delete(key);
      return undefined;
    }
    return w;
  };
  /**
   * Bounded work per new key: expired counters go at most once a minute (a full sweep on every
   * new key past a threshold let one client stall the event loop), and past the cap the oldest
   * counters go (Map order is insertion order).
   */
  const makeRoom = () => {
    const now = Date.now();
    if (now - lastSweep >= SWEEP_EVERY_MS) {
      lastSweep = now;
      for (const [k, w] of windows) if (w.resetAt <= now) windows.delete(k);
    }
    if (windows.size >= maxKeys) {
      const excess = windows.size - maxKeys + 1;
      let i = 0;
      for (const k of windows.keys()) {
        if (i++ >= excess) break;
        windows.delete(k);
      }
    }
  };
  return {
    async hit(key, limit, windowSec) {
      let w = current(key);
      if (!w) {
        makeRoom();
        w = { count: 0, resetAt: Date.now() + windowSec * 1000 };
        windows.set(key, w);
      }
      w.count++;
      return {
        allowed: w.count <= limit,
        count: w.count,
        retryAfterSec: Math.max(1, Math.ceil((w.resetAt - Date.now()) / 1000)),
      };
    },
    async peek(key) {
      return current(key)?.count ?? 0;
    },
    async reset(key) {
      windows.delete(key);
    },
    async undo(key) {
      const w = current(key);
      if (w && w.count > 0) w.count--;
    },
  };
}

// Decrements only a live key: a plain DECR on an expired one would create a counter without a TTL.
const UNDO_SCRIPT = `if redis.call('exists', KEYS[1]) == 1 and tonumber(redis.call('get', KEYS[1])) > 0 then
  return redis.call('decr', KEYS[1]) end return 0`;

export function redisRateLimiter(redis: Redis, prefix = "burrow:rl:"): RateLimiter {
  return {
    async hit(key, limit, windowSec) {
      const k = prefix + key;
      const res = await redis.multi().incr(k).expire(k, windowSec, "NX").pttl(k).exec();
      const count = Number(res?.[0]?.[1] ?? 0);
      const pttl = Number(res?.[2]?.[1] ?? windowSec * 1000);
      return { allowed: count <= limit, count, retryAfterSec: Math.max(1, Math.ceil(pttl / 1000)) };
    },
    async peek(key) {
      return Number((await redis.get(prefix + key)) ?? 0);
    },
    async reset(key) {
      await redis.del(prefix + key);
    },
    async undo(key) {
      await redis.eval(UNDO_SCRIPT, 1, prefix + key);
    },
  };
}
