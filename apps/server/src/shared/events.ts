import { randomBytes } from "node:crypto";
import { EventEmitter } from "node:events";
import type { Redis } from "ioredis";

/**
 * Change notifications that in-memory caches (the frp plugin's decision cache, sessions and users)
 * listen to. They reach this process's listeners synchronously, and with Redis every other
 * process's through pub/sub, so every API process behind a load balancer drops stale entries at
 * once; without Redis they stay in-process.
 */
export interface ChangeEvents {
  /** a user's status, role, frp token or phone changed */
  "user.changed": { uid: number };
  /** a user's subscriptions or quota changed (purchase, expiry, over quota, refund) */
  "subscription.changed": { uid: number };
  /**
   * a tunnel was created, edited, locked or deleted; `released` when frps was seen no longer
   * holding its proxy (the poller), which overrides what a process remembers of its session
   */
  "tunnel.changed": { tun_id: number; uid: number; released?: boolean };
  /** traffic was added to these customers' per-tunnel per-day rows (the poller) */
  "traffic.changed": { uids: number[] };
  /** a customer's domain was verified, flagged, lapsed, removed or unbound */
  "domain.changed": { uid: number };
  /** a node was created, edited or deleted */
  "node.changed": { node_id: number };
  /** one session (`sid`: sign-out) or every session of a user (password change or reset, ban) was revoked */
  "session.revoked": { uid: number; sid?: string };
  /** domain events were recorded in the outbox (shared/outbox.ts): dispatchers look for work now */
  "outbox.recorded": Record<string, never>;
}
export type ChangeEventName = keyof ChangeEvents;

export interface EventBus {
  emit<K extends ChangeEventName>(name: K, payload: ChangeEvents[K]): void;
  on<K extends ChangeEventName>(name: K, listener: (payload: ChangeEvents[K]) => void): void;
  /**
   * Whether changes announced by any process reach this one now: always without Redis, with it
   * only while this process hears its own heartbeats back (HEARTBEAT_MS, LIVE_WINDOW_MS). A cache whose revocations must not be missed (sessions) is not to be
   * trusted while this is false.
   */
  readonly live: boolean;
  /** Runs `listener` each time the subscription is (re)established: changes may have been missed meanwhile. */
  onResync(listener: () => void): void;
  /** Waits for the publishes in flight, then stops listening. */
  close(): Promise<void>;
}

const CHANNEL = "burrow:events";
const RESYNC = "resync";
const HEARTBEAT = "heartbeat";
/** How often each process sends itself a heartbeat through Redis. */
export const HEARTBEAT_MS = 2_000;
/** Without its own heartbeat back for this long, a process stops trusting its caches. */
export const LIVE_WINDOW_MS = 5_000;
/** Events that could not be published wait for the connection to come back, at most this many. */
const MAX_UNSENT = 10_000;

export function createEventBus(redis?: Redis, opts: { heartbeatMs?: number; liveWindowMs?: number } = {}): EventBus {
  const { heartbeatMs = HEARTBEAT_MS, liveWindowMs = LIVE_WINDOW_MS } = opts;
  const local = new EventEmitter();
  local.setMaxListeners(100);
  // Each process hears its own messages back from Redis; it has announced them locally already.
  const origin = randomBytes(8).toString("hex");
  const publishing = new Set<Promise<unknown>>();
  const unsent: string[] = [];
  let sub: Redis | undefined;
  let timer: NodeJS.Timeout | undefined;
  let subscribed = false;
  // When this process last heard its own heartbeat back: proof that both its publishing and its
  // subscribing connection work. A subscription can look alive and hear nothing (a socket cut
  // silently by a NAT) and a publish can fail while the subscription stands; either way the
  // heartbeats stop coming back, the caches stop trusting themselves and start over afterwards.
  let echoAt = 0;
  const heard = () => subscribed && Date.now() - echoAt < liveWindowMs;

  /** Runs every listener even when one throws: the rest of the caches must still hear the change. */
  const deliver = (name: string, payload: unknown) => {
    for (const listener of local.listeners(name)) {
      try {
        (listener as (p: unknown) => void)(payload);
      } catch (err) {
        process.emitWarning(`change event ${name}: a listener failed: ${String(err)}`);
      }
    }
  };

  const publish = (message: string, keep = true) => {
    if (!redis) return;
    const p = redis
      .publish(CHANNEL, message)
      .catch(() => {
        // Kept for the reconnection: the other processes must still drop what changed (every
        // event is an idempotent invalidation, so a late or repeated one is harmless).
        if (keep && unsent.length < MAX_UNSENT) unsent.push(message);
      })
      .finally(() => publishing.delete(p));
    publishing.add(p);
  };

  const beat = JSON.stringify({ name: HEARTBEAT, origin });
  if (redis) {
    const s = redis.duplicate({ keepAlive: 10_000 });
    sub = s;
    // (Re)subscribe whenever the connection is ready: a Redis that is down at start or restarts
    // must neither crash the process (an unhandled rejection) nor leave this bus deaf.
    const subscribe = () =>
      s.subscribe(CHANNEL).then(
        () => {
          subscribed = true;
          publish(beat, false);
        },
        () => undefined,
      );
    void subscribe();
    s.on("ready", subscribe);
    s.on("close", () => {
      subscribed = false;
      echoAt = 0;
    });
    s.on("error", () => undefined);
    redis.on("ready", () => {
      for (const message of unsent.splice(0)) publish(message);
    });
    sub.on("message", (_channel: string, message: string) => {
      try {
        const m = JSON.parse(message) as { name: string; payload: unknown; origin?: string };
        if (m.origin !== origin) {
          if (m.name !== HEARTBEAT) deliver(m.name, m.payload);
        } else if (m.name === HEARTBEAT) {
          const wasLive = heard();
          echoAt = Date.now();
          // Changes announced while this process was not hearing were missed: start over.
          if (!wasLive) deliver(RESYNC, undefined);
        }
      } catch {
        // A malformed message from another process is ignored; caches also expire on their own.
      }
    });
    timer = setInterval(() => publish(beat, false), heartbeatMs);
    timer.unref();
  }
  return {
    emit(name, payload) {
      // Others first: a failing local listener must not keep the change from them.
      publish(JSON.stringify({ name, payload, origin }));
      deliver(name, payload);
    },
    on(name, listener) {
      local.on(name, listener as (p: unknown) => void);
    },
    get live() {
      return !redis || heard();
    },
    onResync(listener) {
      local.on(RESYNC, listener);
    },
    async close() {
      clearInterval(timer);
      await Promise.all(publishing);
      local.removeAllListeners();
      subscribed = false;
      sub?.disconnect();
    },
  };
}
