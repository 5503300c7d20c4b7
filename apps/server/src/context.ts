import type { KeyObject } from "node:crypto";
import type { UsableDomain } from "@burrow/frp-decision";
import type { Redis } from "ioredis";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import type { Config } from "./config";
import type { DB } from "./db/schema";
import type { PasswordWork } from "./modules/auth/passwords";
import type { SessionCache } from "./modules/auth/session-cache";
import type { SmsDriver } from "./modules/auth/sms";
import type { OrderRow } from "./modules/orders/orders.table";
import type { TrafficCache } from "./modules/traffic/traffic-cache";
import type { UserInfoCache } from "./modules/users/user-cache";
import type { Authenticator } from "./shared/auth";
import type { EventBus } from "./shared/events";
import type { Metrics } from "./shared/metrics";
import type { AppState, ModuleManifest } from "./shared/module";
import type { AnyEventHandler } from "./shared/outbox";
import type { RateLimiter } from "./shared/rate-limit";
import type { Tx } from "./shared/tx";

/** Where an awaiting online order is paid: the configured gateway's link (payments module). */
export interface PaymentGateway {
  payUrl(order: { trade_id: string; name: string; amount: number; pay_type: string | null }): string;
}

/**
 * What other modules do when an order is paid or refunded (affiliate rebates, invoices), run
 * inside the order's own transaction under the customer's lock, so they commit or roll back with
 * it. Orders calls them without knowing who listens (no import from orders to its listeners).
 */
export interface OrderHook {
  /** after a paid order was delivered (`fulfilment` tells whether it was applied or credited) */
  paid?(trx: Tx, order: OrderRow, now: Date): Promise<void>;
  /**
   * after a refund paid `refunded` fen back of this order's money: the order refunded (the row
   * already says −2) and every order whose value that refund returned (its extensions, the order
   * whose credit paid an upgrade: orders/value-sources.ts), each with its share
   */
  refunded?(trx: Tx, order: OrderRow, refunded: number, now: Date): Promise<void>;
  /**
   * after `fen` of what a subscription was worth moved to the balance (upgrade credit beyond the
   * new plan's price, a plan gift card's upgrade): a refund, for rebates, of the orders that paid
   * for it (orders/value-sources.ts); the customer keeps the money, so invoices are unaffected
   */
  valueMoved?(trx: Tx, move: { uid: number; subscriptionId: number; fen: number }, now: Date): Promise<void>;
}

/** What a module drops when a node is deleted, inside the deleting transaction. */
export type NodeDeletedHook = (trx: Tx, nodeId: number) => Promise<void>;

/**
 * Whether a customer may start a tunnel now (create one, or write one enabled), asked under the
 * customer's lock in the tunnel's transaction: the reason to refuse, or null. A module that can
 * hold a customer's tunnels stopped (leaving's cool-off) answers without tunnels importing it.
 */
export type TunnelStartGuard = (trx: Tx, uid: number) => Promise<string | null>;

/** A domain a customer may bind to http(s) tunnels now: on which node, and until when. */
export type { UsableDomain };

/**
 * Which custom domains a customer may use on http(s) tunnels, and which names none may claim (the domains module answers; the
 * tunnels module and the frp plugin ask without importing it, which would close an import cycle).
 */
export interface DomainGate {
  /** 400 on custom_domains (unverified, lapsed, other node) or 40001 (another customer's) */
  assertUsable(db: Kysely<DB>, uid: number, nodeId: number, domains: readonly string[]): Promise<void>;
  /** the customer's usable domains by name */
  usable(db: Kysely<DB>, uid: number): Promise<Map<string, UsableDomain>>;
  /** the provider's names and the rules a claimed name must pass (domains/domain-rules.ts) */
  names(db: Kysely<DB>): Promise<DomainNames>;
}

/** The provider's own host names, and why a name cannot be claimed as a custom domain. */
export interface DomainNames {
  /** every node's host and subdomain host, and the console's public host */
  hosts: readonly string[];
  /** why a canonical domain cannot be a customer's (a provider host or under one, a homograph), or null */
  refusal(domain: string): string | null;
}

/** Everything a service needs, built once in buildApp and passed explicitly (no globals). */
export interface AppContext {
  config: Config;
  db: Kysely<DB>;
  log: Logger;
  limiter: RateLimiter;
  sms: SmsDriver;
  /** argon2 hashing and verification, with bounded concurrency */
  passwords: PasswordWork;
  /** the payment gateway orders send customers to */
  payments: PaymentGateway;
  /** HS256 key for session tokens */
  jwtKey: KeyObject;
  /** verified tokens and stored sessions in memory (auth), dropped on "session.revoked" */
  sessions: SessionCache;
  /**
   * The credential kinds (auth registers the session JWT at build time) and the one
   * authentication path defineRoute uses: CONTRIBUTING.md "Adding a credential kind"
   */
  auth: Authenticator;
  /** users as GET /user/userInfo shows them, with role and status (users), dropped on "user.changed" */
  userInfo: UserInfoCache;
  /** customers' traffic sums (/user/traffic), dropped on "traffic.changed" and "tunnel.changed" */
  traffic: TrafficCache;
  /** change notifications for in-memory caches (cross-process with Redis) */
  events: EventBus;
  /** listeners to order payment and refund, registered at start-up */
  orderHooks: OrderHook[];
  /** domain-event handlers (shared/outbox.ts), run after the commit by the outbox dispatcher */
  eventHandlers: AnyEventHandler[];
  /**
   * What other modules drop when a node is deleted (frp's counters and runtime state), run inside
   * the deleting transaction; nodes calls them without importing their owners.
   */
  nodeDeletedHooks: NodeDeletedHook[];
  /** what may refuse a customer's tunnel start (tunnels asks them in the write's transaction) */
  tunnelStartGuards: TunnelStartGuard[];
  /**
   * what may refuse a customer making something of theirs public (an uptime status page), asked
   * under the customer's lock: the same shape as a tunnel start's guard (leaving's cool-off)
   */
  publishGuards: TunnelStartGuard[];
  /** Prometheus counters of this process (/metrics) */
  metrics: Metrics;
  /** custom-domain ownership, for tunnels and the frp plugin */
  domains: DomainGate;
  /** the app's modules (app.ts's list), for what reads across them (the overview's waiting counters) */
  modules: readonly ModuleManifest[];
  /** per-app state of the modules, created when the app is built (shared/module.ts AppState) */
  state: Map<AppState<unknown>, unknown>;
  /** set when REDIS_URL is configured */
  redis?: Redis;
}
