import { Role } from "@burrow/contract";
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
  /** the queue's page is the Managers' only: the overview shows it to them alone */
  managers?: true;
}

/**
 * The waiting counters of the app's modules, in the modules' order; with a viewer's role, only those
 * whose page that role may open (all of them for the queue watch, which tells the Managers).
 */
export function waitingCounters(ctx: AppContext, role?: number): WaitingCounter[] {
  const all = ctx.modules.flatMap((m) => m.waiting ?? []);
  return role === undefined || role === Role.Manager ? all : all.filter((c) => !c.managers);
}

/** Verified users as a figure, none while no module of the app counts them. */
export function verifiedUsersFigure(ctx: AppContext): Figure | undefined {
  return ctx.modules.find((m) => m.verifiedUsers)?.verifiedUsers?.(ctx.db);
}
