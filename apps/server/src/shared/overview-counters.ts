import type { Kysely } from "kysely";
import type { DB } from "../db/schema";
import type { Figure } from "./figures";

/**
 * What waits for an operator, reported by the modules that own the work (tickets, verifications,
 * later withdrawals and invoices). Each module registers its counter when its routes are set up;
 * the overview lists only the counters registered, so a module that does not exist yet is absent.
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

// Keyed by `key`, so that registering again (one app per test, several apps per process) replaces.
const waiting = new Map<string, WaitingCounter>();
let verifiedUsers: ((db: Kysely<DB>) => Figure) | undefined;

/** Adds (or replaces) a "waiting for an operator" counter on the overview. */
export function registerWaitingCounter(counter: WaitingCounter): void {
  waiting.set(counter.key, counter);
}

/** Sets how verified users are counted (the verification module owns that table). */
export function registerVerifiedUsersCounter(count: (db: Kysely<DB>) => Figure): void {
  verifiedUsers = count;
}

/** The registered waiting counters. */
export function waitingCounters(): WaitingCounter[] {
  return [...waiting.values()];
}

/** Verified users as a figure, none while no verification module has registered. */
export function verifiedUsersFigure(db: Kysely<DB>): Figure | undefined {
  return verifiedUsers?.(db);
}
