import { EventEmitter } from "node:events";
import type { Redis } from "ioredis";

/**
 * Change notifications that in-memory caches (the frp plugin's decision cache, above all) listen
 * to. With Redis they cross processes through pub/sub, so every API process behind a load
 * balancer drops stale entries at once; without it they stay in-process.
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
}
export type ChangeEventName = keyof ChangeEvents;

export interface EventBus {
  emit<K extends ChangeEventName>(name: K, payload: ChangeEvents[K]): void;
  on<K extends ChangeEventName>(name: K, listener: (payload: ChangeEvents[K]) => void): void;
  close(): Promise<void>;
}

const CHANNEL = "burrow:events";

export function createEventBus(redis?: Redis): EventBus {
  const local = new EventEmitter();
  local.setMaxListeners(100);
  let sub: Redis | undefined;
  if (redis) {
    sub = redis.duplicate();
    void sub.subscribe(CHANNEL);
    sub.on("message", (_channel: string, message: string) => {
      try {
        const { name, payload } = JSON.parse(message) as { name: string; payload: unknown };
        local.emit(name, payload);
      } catch {
        // A malformed message from another process is ignored; caches also expire on their own.
      }
    });
  }
  return {
    emit(name, payload) {
      if (redis) void redis.publish(CHANNEL, JSON.stringify({ name, payload }));
      else local.emit(name, payload);
    },
    on(name, listener) {
      local.on(name, listener as (p: unknown) => void);
    },
    async close() {
      local.removeAllListeners();
      sub?.disconnect();
    },
  };
}
