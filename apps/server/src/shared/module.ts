import type { FastifyInstance } from "fastify";
import type { Kysely } from "kysely";
import type { Config } from "../config";
import type { AppContext, NodeDeletedHook, OrderHook, TunnelStartGuard } from "../context";
import type { DB } from "../db/schema";
import type { Figure } from "./figures";
import type { JobDef } from "./jobs";
import type { AnyEventHandler } from "./outbox";
import type { WaitingCounter } from "./overview-counters";

/**
 * Everything a module adds to the app, in one place: `modules/<name>/<name>.module.ts` exports one,
 * and buildApp (app.ts) walks the list of them. Nothing of a module is registered anywhere else.
 *
 * Background work follows one rule, applied by buildApp: `jobs` and `start` run unless
 * NODE_ENV=test, where tests call the jobs' functions directly; `background` lets a module's own
 * switch (FRP_POLLER, SSL_JOBS) override that default either way.
 */
export interface ModuleManifest {
  /** the module's folder under modules/ (and its contract domain, where it has endpoints) */
  name: string;
  /** per-app state, created when the app is built (before anything below runs); see AppState */
  state?: readonly AppState<unknown>[];
  /**
   * On the root server, before /api and before any other preClose hook: what must see requests
   * ahead of Fastify's router (the frp plugin's fast path).
   */
  server?(app: FastifyInstance, ctx: AppContext): void;
  /** its endpoints, registered under /api, each with `defineRoute` and its contract entry */
  routes?(api: FastifyInstance, ctx: AppContext): void;
  /** build-time extras that are not routes (metrics gauges) */
  setup?(ctx: AppContext): void;
  /** listeners to order payment and refund (ctx.orderHooks), run in the order's transaction */
  orderHooks?: readonly OrderHook[];
  /** what it drops when a node is deleted (ctx.nodeDeletedHooks), in the deleting transaction */
  nodeDeletedHooks?: readonly NodeDeletedHook[];
  /** what may refuse a customer's tunnel start (ctx.tunnelStartGuards), in the tunnel's transaction */
  tunnelStartGuards?: readonly TunnelStartGuard[];
  /** what may refuse a customer turning a public page on (ctx.publishGuards), under the customer's lock */
  publishGuards?: readonly TunnelStartGuard[];
  /** domain-event handlers (shared/outbox.ts), run after the commit, at least once */
  eventHandlers?: readonly AnyEventHandler[];
  /**
   * What waits for an operator in this module: one counter per queue, listed on the overview
   * (/super/viewInfo). A module whose customers submit something an operator decides has one
   * (test/module-manifests.test.ts).
   */
  waiting?: readonly WaitingCounter[];
  /** the overview's verified-users figure (verify owns that table) */
  verifiedUsers?: (db: Kysely<DB>) => Figure;
  /** lease-guarded background jobs (shared/jobs.ts) */
  jobs?(ctx: AppContext): JobDef[];
  /** the module's own switch for its background work; undefined keeps the rule (off under NODE_ENV=test) */
  background?(config: Config): boolean | undefined;
  /** long-running work that is not a job (the frp poller), started once the server is ready */
  start?(ctx: AppContext): void;
  /** stops what `start` started, while the server drains (preClose: requests in flight still run) */
  stop?(ctx: AppContext): Promise<void>;
  /** after the last request was answered, before the database closes (the frp writer's last rows) */
  drain?(ctx: AppContext): Promise<void>;
}

/**
 * Per-app state a module owns (its runtime, an in-process set), created once by buildApp for each
 * manifest that lists it and dropped with the app: no module-level singleton, no WeakMap keyed by
 * the context. `of(ctx)` fails loudly for an app built without the module.
 */
export class AppState<S> {
  constructor(
    readonly name: string,
    private readonly create: (ctx: AppContext) => S,
  ) {}

  /** buildApp only: creates the state of this app. */
  init(ctx: AppContext): void {
    if (ctx.state.has(this)) throw new Error(`module state ${this.name} created twice`);
    ctx.state.set(this, this.create(ctx));
  }

  of(ctx: AppContext): S {
    if (!ctx.state.has(this)) throw new Error(`module state ${this.name} missing: is its module in app.ts's list?`);
    return ctx.state.get(this) as S;
  }
}

/** Whether a module's background work (jobs, start) runs in this process: the one rule. */
export function runsInBackground(m: ModuleManifest, config: Config): boolean {
  return m.background?.(config) ?? config.NODE_ENV !== "test";
}
