import type { Kysely } from "kysely";
import type { AppContext } from "../context";
import type { DB } from "../db/schema";
import { randomToken } from "./ids";

/** This process's name in job_leases. */
const HOLDER = `${process.pid}-${randomToken(6)}`;

/**
 * Takes (or renews) the lease on a job for `ttlMs`. Returns false when another process holds an
 * unexpired one. Two statements, both atomic on their own: create the row if missing, then take
 * it only if it is ours or expired — whichever process's update lands first wins.
 */
export async function acquireLease(
  db: Kysely<DB>,
  name: string,
  ttlMs: number,
  holder = HOLDER,
  now = new Date(),
): Promise<boolean> {
  const expires = new Date(now.getTime() + ttlMs).toISOString();
  await db
    .insertInto("job_leases")
    .values({ name, holder: "", expires_at: new Date(0).toISOString() })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  const r = await db
    .updateTable("job_leases")
    .set({ holder, expires_at: expires })
    .where("name", "=", name)
    .where((eb) => eb.or([eb("holder", "=", holder), eb("expires_at", "<", now.toISOString())]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Gives a lease back early so that another process may run the job at once. */
export async function releaseLease(db: Kysely<DB>, name: string, holder = HOLDER): Promise<void> {
  await db
    .updateTable("job_leases")
    .set({ expires_at: new Date(0).toISOString() })
    .where("name", "=", name)
    .where("holder", "=", holder)
    .execute();
}

export interface JobDef {
  name: string;
  /** run every this many milliseconds (first run shortly after start) */
  everyMs: number;
  /** the work; must be idempotent (a lease can expire under a slow run) */
  run: (ctx: AppContext) => Promise<unknown>;
  /** false when the job leases its own parts (the poller leases node by node); default true */
  lease?: boolean;
  /** measure the interval from the start of a run rather than its end (a steady poll rate) */
  fixedRate?: boolean;
  /** delay before the first run; default min(5 s, everyMs) */
  firstDelayMs?: number;
}

/** When another holder's lease on a job runs out (ms from now), or 0 when it is free or ours. */
async function leaseLeftMs(db: Kysely<DB>, name: string, holder = HOLDER): Promise<number> {
  const row = await db
    .selectFrom("job_leases")
    .select(["holder", "expires_at"])
    .where("name", "=", name)
    .executeTakeFirst();
  if (!row || row.holder === holder) return 0;
  return Math.max(0, new Date(row.expires_at).getTime() - Date.now());
}

/**
 * Runs each job on its interval, under a lease so that only one process runs a job at a time.
 * The lease lasts one interval and its holder renews it every third of one (a heartbeat, also
 * while a long run goes on); a process that finds the job held tries again right when that lease
 * runs out. So when the holder dies, another process takes the job over within one interval;
 * when it stops cleanly, at once (the leases are handed back).
 * Returns a stop function that cancels the timers, waits for runs in progress and releases the leases.
 */
export function startJobs(ctx: AppContext, jobs: JobDef[]): () => Promise<void> {
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  const held = new Map<string, NodeJS.Timeout>();
  let stopped = false;
  const hold = (job: JobDef) => {
    if (held.has(job.name)) return;
    const beat = setInterval(() => {
      acquireLease(ctx.db, job.name, job.everyMs).then(
        (still) => {
          if (still) return;
          clearInterval(beat);
          held.delete(job.name);
        },
        (err) => ctx.log.warn({ err, job: job.name }, "job lease renewal failed"),
      );
    }, job.everyMs / 3);
    beat.unref();
    held.set(job.name, beat);
  };
  const schedule = (job: JobDef, delay: number) => {
    if (stopped) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      const started = Date.now();
      let next = job.everyMs;
      const run = (async () => {
        if (job.lease !== false) {
          if (!(await acquireLease(ctx.db, job.name, job.everyMs))) {
            const beat = held.get(job.name);
            if (beat) clearInterval(beat);
            held.delete(job.name);
            // Held elsewhere: try again as soon as that lease runs out (if it is not renewed).
            // (Never sooner than a tenth of an interval: clocks of two machines may disagree.)
            next = Math.min(job.everyMs, Math.max(job.everyMs / 10, (await leaseLeftMs(ctx.db, job.name)) + 20));
            return;
          }
          hold(job);
        }
        try {
          const result = await job.run(ctx);
          ctx.metrics.job(job.name, true, (Date.now() - started) / 1000);
          ctx.log.debug({ job: job.name, result }, "job done");
        } catch (err) {
          ctx.metrics.job(job.name, false, (Date.now() - started) / 1000);
          throw err;
        }
      })()
        .catch((err) => ctx.log.error({ err, job: job.name }, "job failed"))
        .finally(() => {
          running.delete(run);
          schedule(job, job.fixedRate ? Math.max(0, next - (Date.now() - started)) : next);
        });
      running.add(run);
    }, delay);
    timer.unref();
    timers.add(timer);
  };
  for (const job of jobs) schedule(job, job.firstDelayMs ?? Math.min(5_000, job.everyMs));
  return async () => {
    stopped = true;
    for (const t of timers) clearTimeout(t);
    timers.clear();
    await Promise.allSettled([...running]);
    for (const beat of held.values()) clearInterval(beat);
    // Hand the jobs over at once instead of after the lease runs out.
    await Promise.allSettled([...held.keys()].map((name) => releaseLease(ctx.db, name)));
    held.clear();
  };
}
