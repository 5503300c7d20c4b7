import type { AppContext } from "../../context";
import { rateLimited } from "../../shared/errors";
import { clientKey } from "../../shared/rate-limit";

/** The window of the sign-in failure limits (password and second factor alike). */
export const FAIL_WINDOW = 15 * 60;
/** failures per account (phone, or the second factor's uid) in a window */
export const FAILS_PER_ACCOUNT = 5;
/** failures per client address in a window, password and second-factor attempts together */
export const FAILS_PER_IP = 30;

/** The limiter key of a client address's sign-in failures (shared by every kind of attempt). */
export const ipFailKey = (ip: string): string => `login:fail:ip:${clientKey(ip)}`;

/** One budget an attempt is counted against. */
export interface AttemptBudget {
  key: string;
  limit: number;
  /**
   * What a success does to it: "reset" clears it (the account's own counter: its holder proved
   * who they are), "undo" takes back this attempt only (a shared counter such as the address's).
   */
  onSuccess: "reset" | "undo";
}

/**
 * Runs a credential check under failure limits → 429 once any budget is spent.
 *
 * Every attempt is counted atomically *before* the check, so that concurrent requests cannot all
 * pass a "not locked yet" test: at most `limit` checks per budget are ever evaluated in a window.
 * A success takes its hits back (see onSuccess); an attempt that was never evaluated (a budget is
 * spent, or the check threw) is taken back too, so the counters hold failures plus attempts in flight.
 */
export async function countedAttempt<T>(
  ctx: AppContext,
  budgets: readonly AttemptBudget[],
  check: () => Promise<T>,
  succeeded: (result: T) => boolean,
): Promise<T> {
  const taken: AttemptBudget[] = [];
  const giveBack = async () => {
    for (const b of taken) await ctx.limiter.undo(b.key);
  };
  for (const b of budgets) {
    const r = await ctx.limiter.hit(b.key, b.limit, FAIL_WINDOW);
    if (!r.allowed) {
      await giveBack();
      throw rateLimited(r.retryAfterSec);
    }
    taken.push(b);
  }
  let result: T;
  try {
    result = await check();
  } catch (err) {
    await giveBack();
    throw err;
  }
  if (succeeded(result)) {
    for (const b of taken) await (b.onSuccess === "reset" ? ctx.limiter.reset(b.key) : ctx.limiter.undo(b.key));
  }
  return result;
}
