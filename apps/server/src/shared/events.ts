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
  /** a customer's domain was verified, flagged, lapsed, removed or unbound */
  "domain.changed": { uid: number };
  /** a node was created, edited or deleted */
  "node.changed": { node_id: number };
  /** one session (`sid`: sign-out) or every session of a user (password change or reset, ban) was revoked */
  "session.revoked": { uid: number; sid?: string };
}
export type ChangeEventName = keyof ChangeEvents;

export interface EventBus {
  emit<K extends ChangeEventName>(name: K, payload: ChangeEvents[K]): void;
  on<K extends ChangeEventName>(name: K, listener: (payload: ChangeEvents[K]) => void): void;
  /**
   * Whether changes announced by any process reach this one now: always without Redis, with it
   * only while subscribed. A cache whose revocations must not be missed (sessions) is not to be
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

export function createEventBus(redis?: Redis): EventBus {
  const local = new EventEmitter();
  local.setMaxListeners(100);
  // Each process hears its own messages back from Redis; it has announced them locally already.
  const origin = randomBytes(8).toString("hex");
  const publishing = new Set<Promise<unknown>>();
  let sub: Redis | undefined;
  let subscribed = false;
  if (redis) {
    const s = redis.duplicate();
    sub = s;
    // (Re)subscribe whenever the connection is ready: a Redis that is down at start or restarts
    // must neither crash the process (an unhandled rejection) nor leave this bus deaf.
    const subscribe = () =>
      s.subscribe(CHANNEL).then(
        () => {
          if (subscribed) return;
          subscribed = true;
          local.emit(RESYNC);
        },
        () => undefined,
      );
    void subscribe();
    s.on("ready", subscribe);
    s.on("close", () => {
      subscribed = false;
    });
    s.on("error", () => undefined);
    sub.on("message", (_channel: string, message: string) => {
      try {
        const m = JSON.parse(message) as { name: string; payload: unknown; origin?: string };
        if (m.origin !== origin) local.emit(m.name, m.payload);
      } catch {
        // A malformed message from another process is ignored; caches also expire on their own.
      }
    });
  }
  return {
    emit(name, payload) {
      local.emit(name, payload);
      if (!redis) return;
      // Redis down: the event is lost for the other processes (their subscriptions are down too,
      // so they do not trust their caches, and start over once back), this one goes on.
      const p = redis
        .publish(CHANNEL, JSON.stringify({ name, payload, origin }))
        .catch(() => undefined)
        .finally(() => publishing.delete(p));
      publishing.add(p);
    },
    on(name, listener) {
      local.on(name, listener as (p: unknown) => void);
    },
    get live() {
      return !redis || subscribed;
    },
    onResync(listener) {
      local.on(RESYNC, listener);
    },
    async close() {
      await Promise.all(publishing);
      local.removeAllListeners();
      subscribed = false;
      sub?.disconnect();
    },
  };
}
