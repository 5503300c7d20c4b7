import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEventBus } from "./events";
import { redisRateLimiter } from "./rate-limit";

const URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
let redis: Redis;

beforeAll(async () => {
  redis = new Redis(URL, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  try {
    await redis.connect();
  } catch (err) {
    throw new Error(
      `Redis is not reachable at ${URL} (${(err as Error).message}); start it (scripts/ensure-test-deps.sh) or set TEST_REDIS_URL`,
    );
  }
});
afterAll(() => redis?.disconnect());

describe("shared state through Redis (several API processes)", () => {
  it("counts rate-limit hits across limiter instances", async () => {
    const key = `t:${randomBytes(6).toString("hex")}`;
    const a = redisRateLimiter(redis);
    const b = redisRateLimiter(redis.duplicate());
    expect((await a.hit(key, 2, 60)).allowed).toBe(true);
    expect((await b.hit(key, 2, 60)).allowed).toBe(true);
    const third = await a.hit(key, 2, 60);
    expect(third.allowed).toBe(false);
    expect(third.retryAfterSec).toBeGreaterThan(0);
    expect(await b.peek(key)).toBe(3);
    await b.reset(key);
    expect(await a.peek(key)).toBe(0);
  });

  it("takes one hit back with undo, never below zero and never on an expired key", async () => {
    const key = `t:${randomBytes(6).toString("hex")}`;
    const l = redisRateLimiter(redis);
    await l.hit(key, 5, 60);
    await l.hit(key, 5, 60);
    await l.undo(key);
    expect(await l.peek(key)).toBe(1);
    await l.undo(key);
    await l.undo(key);
    expect(await l.peek(key)).toBe(0);
    await l.reset(key);
    await l.undo(key);
    // An undo on a missing key must not create a counter without a TTL.
    expect(await redis.exists(`burrow:rl:${key}`)).toBe(0);
  });

  it("delivers change events to every process's bus", async () => {
    const bus1 = createEventBus(redis);
    const bus2 = createEventBus(redis.duplicate());
    const got: number[] = [];
    bus2.on("user.changed", (p) => got.push(p.uid));
    bus1.on("user.changed", (p) => got.push(p.uid * 10));
    await new Promise((r) => setTimeout(r, 200)); // let both subscriptions settle
    bus1.emit("user.changed", { uid: 7 });
    for (let i = 0; i < 50 && got.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    expect(got.sort()).toEqual([7, 70]);
    await bus1.close();
    await bus2.close();
  });
});
