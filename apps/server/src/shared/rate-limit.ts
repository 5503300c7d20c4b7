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

export function memoryRateLimiter(): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const current = (key: string) => {
    const w = windows.get(key);
    if (w && w.resetAt <= Date.now()) {
      windows.delete(key);
      return undefined;
    }
    return w;
  };
  return {
    async hit(key, limit, windowSec) {
      let w = current(key);
      if (!w) {
        w = { count: 0, resetAt: Date.now() + windowSec * 1000 };
        windows.set(key, w);
        // Sweep occasionally so the map cannot grow without bound.
        if (windows.size > 50_000) for (const k of windows.keys()) current(k);
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
