import type { Kysely } from "kysely";
import type { AppContext } from "../context";
import type { DB } from "../db/schema";
import type { Figure } from "./figures";

/**
 * What waits for an operator, declared by the module that owns the work (tickets, verifications,
 * withdrawals, invoices) in its manifest's `waiting` (shared/module.ts). The overview lists the
 * counters of the app's modules, so a module that is not in the app is absent.
 */
export interface WaitingCounter {
  /** stable key, e.g. "tickets" */
  key: string;
  /** what the operator reads, e.g. "待回复工单" */
  label: string;
  /** the admin page that works the queue, relative to /admin (e.g. "/mgr/ticket") */
  path: string;
  /** the count, as a query the overview reads with its other figures (shared/figures.ts) */
  count: (db: Kysely<DB>) => Figure;
}

/** The waiting counters of the app's modules, in the modules' order. */
export function waitingCounters(ctx: AppContext): WaitingCounter[] {
  return ctx.modules.flatMap((m) => m.waiting ?? []);
}

/** Verified users as a figure, none while no module of the app counts them. */
export function verifiedUsersFigure(ctx: AppContext): Figure | undefined {
  return ctx.modules.find((m) => m.verifiedUsers)?.verifiedUsers?.(ctx.db);
}
