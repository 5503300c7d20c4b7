import { hash, verify } from "@node-rs/argon2";
import { rateLimited } from "../../shared/errors";

/** argon2id with the library defaults (19 MiB, 2 passes): OWASP's recommended minimum. */
export const hashPassword = (password: string): Promise<string> => hash(password);

export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
}

/**
 * argon2 behind a small semaphore, for the public paths (login, register, reset, password change):
 * at most `concurrency` hashes run at once and at most `queue` wait; any further request is
 * refused at once with 429 instead of piling up, so an unauthenticated flood cannot take every
 * CPU (and 19 MiB each) of the process. One per app, so per process.
 */
export interface PasswordWork {
  hash(password: string): Promise<string>;
  verify(hashed: string, password: string): Promise<boolean>;
  /** argon2 runs started, and requests refused because the queue was full (tests and metrics) */
  readonly stats: { hashes: number; verifications: number; refused: number };
}

export function passwordWork(opts: { concurrency: number; queue: number }): PasswordWork {
  let active = 0;
  const waiting: (() => void)[] = [];
  const stats = { hashes: 0, verifications: 0, refused: 0 };
  async function run<T>(fn: () => Promise<T>): Promise<T> {
    if (active < opts.concurrency) active++;
    else if (waiting.length < opts.queue) await new Promise<void>((r) => waiting.push(r));
    else {
      stats.refused++;
      throw rateLimited(1);
    }
    try {
      return await fn();
    } finally {
      // Hand the slot straight to the next waiter, so `active` never exceeds the limit.
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  }
  return {
    stats,
    hash: (password) =>
      run(() => {
        stats.hashes++;
        return hashPassword(password);
      }),
    verify: (hashed, password) =>
      run(() => {
        stats.verifications++;
        return verifyPassword(hashed, password);
      }),
  };
}
