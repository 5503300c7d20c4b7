import type { AppContext } from "../context";

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
  count: (ctx: AppContext) => Promise<number>;
}

// Keyed by `key`, so that registering again (one app per test, several apps per process) replaces.
const waiting = new Map<string, WaitingCounter>();
let verifiedUsers: ((ctx: AppContext) => Promise<number>) | undefined;

/** Adds (or replaces) a "waiting for an operator" counter on the overview. */
export function registerWaitingCounter(counter: WaitingCounter): void {
  waiting.set(counter.key, counter);
}

/** Sets how verified users are counted (the verification module owns that table). */
export function registerVerifiedUsersCounter(count: (ctx: AppContext) => Promise<number>): void {
  verifiedUsers = count;
}

/** The registered waiting counters, evaluated. */
export function waitingCounts(ctx: AppContext): Promise<{ key: string; label: string; path: string; count: number }[]> {
  return Promise.all(
    [...waiting.values()].map(async (c) => ({ key: c.key, label: c.label, path: c.path, count: await c.count(ctx) })),
  );
}

/** Verified users, 0 while no verification module has registered. */
export function verifiedUserCount(ctx: AppContext): Promise<number> {
  return verifiedUsers ? verifiedUsers(ctx) : Promise.resolve(0);
}
