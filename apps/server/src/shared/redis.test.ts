import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEventBus } from "./events";
import { redisRateLimiter } from "./rate-limit";

const URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
let redis: Redis;
/**
 * A uid no other test uses: every bus on this Redis shares one channel, and other test files (or
 * another run on the same machine) publish on it at the same time.
 */
const ownUid = () => 900_000_000 + Math.floor(Math.random() * 1e8);

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
    const uid = ownUid();
    const got: string[] = [];
    bus2.on("user.changed", (p) => p.uid === uid && got.push("other"));
    bus1.on("user.changed", (p) => p.uid === uid && got.push("same"));
    await new Promise((r) => setTimeout(r, 200)); // let both subscriptions settle
    bus1.emit("user.changed", { uid });
    for (let i = 0; i < 50 && got.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    expect(got.sort()).toEqual(["other", "same"]);
    await bus1.close();
    await bus2.close();
  });

  it("a bus that stops hearing its own heartbeat is not live; what it could not publish goes out once Redis is back", async () => {
    const conn = new Redis(URL, { maxRetriesPerRequest: 1, retryStrategy: () => null });
    const bus1 = createEventBus(conn, { heartbeatMs: 50, liveWindowMs: 300 });
    const bus2 = createEventBus(redis.duplicate());
    const uid = ownUid();
    const got: number[] = [];
    let resyncs = 0;
    bus2.on("user.changed", (p) => p.uid === uid && got.push(p.uid));
    bus1.onResync(() => resyncs++);
    const until = async (ok: () => boolean) => {
      for (let i = 0; i < 100 && !ok(); i++) await new Promise((r) => setTimeout(r, 20));
      return ok();
    };
    expect(await until(() => bus1.live)).toBe(true);
    expect(resyncs).toBe(1);
    // Its publishing connection is lost while its subscription stands: no heartbeat comes back.
    conn.disconnect();
    expect(await until(() => !bus1.live)).toBe(true);
    bus1.emit("user.changed", { uid });
    await new Promise((r) => setTimeout(r, 100));
    expect(got).toEqual([]);
    await conn.connect();
    expect(await until(() => got.includes(uid))).toBe(true);
    // Live again, after starting over (what it missed meanwhile is unknown).
    expect(await until(() => bus1.live)).toBe(true);
    expect(resyncs).toBe(2);
    await bus1.close();
    await bus2.close();
    conn.disconnect();
  });

  it("a listener that throws keeps neither the other listeners nor the other processes from the event", async () => {
    const bus1 = createEventBus(redis);
    const bus2 = createEventBus(redis.duplicate());
    const uid = ownUid();
    const got: string[] = [];
    bus2.on("user.changed", (p) => p.uid === uid && got.push("other"));
    bus1.on("user.changed", () => {
      throw new Error("broken listener");
    });
    bus1.on("user.changed", (p) => p.uid === uid && got.push("same"));
    await new Promise((r) => setTimeout(r, 200));
    const warn = process.emitWarning;
    process.emitWarning = () => undefined;
    try {
      bus1.emit("user.changed", { uid });
    } finally {
      process.emitWarning = warn;
    }
    for (let i = 0; i < 50 && got.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    expect(got.sort()).toEqual(["other", "same"]);
    await bus1.close();
    await bus2.close();
  });
});
