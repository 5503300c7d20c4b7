import type { AppContext } from "../context";
import type { Tx } from "./tx";

/** A subscription's usage crossed a share of its quota (quota.80 / quota.95 / quota.100). */
export interface QuotaCrossed {
  uid: number;
  subscription_id: number;
  /** the plan's end (ISO; null: the free plan, no end) when it was crossed: a renewal starts a new period */
  period_end: string | null;
  used: number;
  quota: number;
}

/** An automatic renewal ahead (subscription.renewal_due) or unpaid (subscription.renewal_failed). */
export interface RenewalNotice {
  uid: number;
  subscription_id: number;
  plan_name: string;
  /** the end the renewal extends (ISO) */
  period_end: string;
  /** fen the renewal will take from the balance, priced now */
  amount: number;
  /** the balance now, fen */
  balance: number;
}

/**
 * Domain events: facts an owner records in the same transaction as the change ("order paid",
 * "tunnel went offline"), delivered after the commit to every handler that listens, at least once
 * (shared/outbox-dispatch.ts). Unlike change events (shared/events.ts: ids only, at most once, for
 * caches) they survive a crash and carry what a reader needs. Declared once here: a type is a key
 * of this map and its payload the value, so a typo or a missing field does not compile.
 * Payloads are stored as JSON: add fields freely, never rename or retype one (old rows keep the
 * old shape until pruned).
 */
export interface DomainEvents {
  /** an order was paid and delivered (orders, in the order's transaction) */
  "order.paid": {
    order_id: number;
    trade_id: string;
    uid: number;
    /** OrderType */
    type: number;
    name: string;
    /** fen paid */
    amount: number;
    /** bought by an automatic rule (auto-renewal, traffic top-up), not by the customer's hand; absent on older rows */
    automatic?: boolean;
  };
  /** frps no longer holds a tunnel that was online (frp poller, with the status change) */
  "tunnel.offline": {
    tun_id: number;
    uid: number;
    node_id: number;
    name: string;
    /** why, as far as the writer knows (UptimeCause: "client", "disabled", "locked"); absent on older rows */
    cause?: string;
  };
  /** a tunnel came online (frp plugin login or the poller seeing it held) */
  "tunnel.online": { tun_id: number; uid: number; node_id: number; name: string };
  /** a subscription's usage crossed 80 % of its quota (once per subscription and period) */
  "quota.80": QuotaCrossed;
  /** a plan with auto-renewal on ends within three days: it will be renewed from the balance (autopay, once per period) */
  "subscription.renewal_due": RenewalNotice;
  /** an automatic renewal could not be paid (autopay, at most once a Shanghai day; retried daily until the end) */
  "subscription.renewal_failed": RenewalNotice & {
    /** what the customer reads, e.g. "余额不足，自动续费失败" */
    message: string;
  };
  /** an automatic traffic top-up was due but not bought (autopay: balance short, monthly cap reached, pack gone) */
  "traffic.topup_failed": {
    uid: number;
    plan_id: number;
    amount: number;
    /** what the customer reads */
    message: string;
  };
  /** a sign-in from a device (user-agent family and network) the account had not signed in from (auth) */
  "auth.new_device": { uid: number; device: string; ip: string; at: string };
  /** usage crossed 95 % of the quota (as quota.80: once per subscription and period) */
  "quota.95": QuotaCrossed;
  /** the quota is used up: the tunnels stop until a renewal or a traffic pack (once per period) */
  "quota.100": QuotaCrossed;
  /** a paid plan ends in `days_left` (7, 3 or 1) days (subscriptions' daily job; once per plan, end and day) */
  "plan.expiring": { uid: number; subscription_id: number; plan_name: string; end_at: string; days_left: number };
  /** a paid plan has ended (subscriptions; once per plan and end) */
  "plan.expired": { uid: number; subscription_id: number; plan_name: string; end_at: string };
  /** an order was refunded (orders, in the refund's transaction); `amount` fen returned */
  "order.refunded": { order_id: number; trade_id: string; uid: number; name: string; amount: number };
  /** staff answered a customer's ticket (tickets, with the reply) */
  "ticket.replied": { uid: number; ticket_id: number; reply_id: number; title: string };
  /** a certificate ends in `days_left` days and was not renewed yet (ssl; once per certificate, expiry and day) */
  "cert.expiring": { uid: number; cert_id: number; domain: string; expires_at: string; days_left: number };
  /** a certificate was renewed (ssl, with the new one stored) */
  "cert.renewed": { uid: number; cert_id: number; domain: string; expires_at: string };
  /** a verified custom domain failed its re-check and is no longer verified (domains) */
  "domain.verification_lost": { uid: number; domain_id: number; domain: string; reason: string };
  /** operators: a node stopped answering (frp poller, with its health change) */
  "node.down": { node_id: number; name: string; at: string; reason: string };
  /** operators: a node that was down answers again (frp poller) */
  "node.up": { node_id: number; name: string; at: string };
  /** operators: payment notifications keep being refused or payments keep failing (payments) */
  "payment.failing": { failures: number; since: string; last_reason: string };
  /** operators: a queue (the overview's waiting counters) has had work waiting too long */
  "queue.waiting": { key: string; label: string; path: string; count: number; oldest_at: string };
  /**
   * a maintenance window on nodes was announced, edited or cancelled (uptime, in the operator's
   * transaction; `uids`: the customers with tunnels on those nodes then, to be told)
   */
  /** a customer's webhook endpoint was paused after failing in a row (webhooks, in the pausing update's transaction) */
  "webhook.paused": {
    uid: number;
    endpoint_id: number;
    url: string;
    /** failed attempts in a row when it was paused */
    failures: number;
  };
  "node.maintenance": {
    maintenance_id: number;
    action: "announced" | "updated" | "cancelled";
    title: string;
    starts_at: string;
    ends_at: string;
    node_ids: number[];
    uids: number[];
  };
}
export type DomainEventType = keyof DomainEvents;

/** One recorded event as handlers receive it. */
export interface DomainEvent<K extends DomainEventType = DomainEventType> {
  /** the outbox row id: unique, increasing, the key of its deliveries */
  id: number;
  type: K;
  payload: DomainEvents[K];
  /** the customer the event concerns (payload.uid), for handlers that notify one; null for none */
  uid: number | null;
  /** when it was recorded (ISO UTC) */
  created_at: string;
}

/** The union of events of the given types, so a handler of several types can narrow on `type`. */
export type DomainEventOf<K extends DomainEventType> = { [T in K]: DomainEvent<T> }[K];

/**
 * A reaction to domain events, run after the commit, at least once per event, until it succeeds
 * (retries with backoff, then a dead letter operators see and can retry). `name` is its identity
 * in the deliveries table: never rename one that has deliveries in flight. `handle` must be
 * idempotent (a process may die after the work and before the delivery is marked done); a throw
 * is a failed attempt.
 */
export interface EventHandler<K extends DomainEventType = DomainEventType> {
  name: string;
  types: readonly K[];
  handle(ctx: AppContext, event: DomainEventOf<K>): Promise<void>;
}

/** Typed constructor (infers `K` from `types`, so `event` narrows inside `handle`). */
export function defineEventHandler<K extends DomainEventType>(handler: EventHandler<K>): EventHandler<K> {
  return handler;
}

/** Any handler, whatever types it listens to (a list of them, a manifest's field). */
// biome-ignore lint/suspicious/noExplicitAny: handlers of different event types in one list
export type AnyEventHandler = EventHandler<any>;

/** Change event that wakes the dispatchers (this process and, with Redis, the others) after a commit. */
export const OUTBOX_WAKE = "outbox.recorded";

/**
 * Records `type` with `payload` in the outbox, inside `trx`: it commits with the change and is
 * dropped on a rollback. After the commit the dispatchers are woken (through the change-event bus,
 * so `transact` holds the wake-up until the commit); a process that dies first leaves the row for
 * the dispatch job. With `key`, an event of that key already recorded (and not yet pruned) makes
 * this a no-op (null): the owner's emission stays idempotent when its trigger repeats.
 * `wake: false` (the frp hot path: tunnel status) leaves the event to the dispatch job's next run
 * (OUTBOX_LIMITS.pollMs) instead of a wake-up per transaction, which with Redis is a publish to
 * every process. Returns the event's id.
 */
export async function recordEvent<K extends DomainEventType>(
  trx: Tx,
  type: K,
  payload: DomainEvents[K],
  opts: { key?: string; now?: Date; wake?: boolean } = {},
): Promise<number | null> {
  const row = await trx
    .insertInto("outbox_events")
    .values(eventRow(type, payload, opts.key ?? null, (opts.now ?? new Date()).toISOString()))
    .onConflict((oc) => oc.column("dedupe_key").doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!row) return null;
  if (opts.wake !== false) trx.changes.emit(OUTBOX_WAKE, {});
  return Number(row.id);
}

/**
 * Several unkeyed events of one type in one statement (a status change of many tunnels on the frp
 * hot path): what recordEvent does for each, without a round trip apiece.
 */
export async function recordEvents<K extends DomainEventType>(
  trx: Tx,
  type: K,
  payloads: readonly DomainEvents[K][],
  opts: { now?: Date; wake?: boolean } = {},
): Promise<void> {
  if (!payloads.length) return;
  const at = (opts.now ?? new Date()).toISOString();
  await trx
    .insertInto("outbox_events")
    .values(payloads.map((p) => eventRow(type, p, null, at)))
    .execute();
  if (opts.wake !== false) trx.changes.emit(OUTBOX_WAKE, {});
}

function eventRow(type: DomainEventType, payload: unknown, key: string | null, at: string) {
  const uid = (payload as { uid?: unknown }).uid;
  return {
    type,
    payload: JSON.stringify(payload),
    uid: typeof uid === "number" ? uid : null,
    dedupe_key: key,
    created_at: at,
    fanned_out: 0,
  };
}
