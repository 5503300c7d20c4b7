import type { ExpressionBuilder, Kysely } from "kysely";
import type { AppContext } from "../context";
import { isPostgres } from "../db/dialect";
import type { DB, OutboxDeliveryTable } from "../db/schema";
import { randomToken } from "./ids";
import type { JobDef } from "./jobs";
import { type AnyEventHandler, type DomainEvent, type DomainEventType, OUTBOX_WAKE } from "./outbox";

/**
 * The outbox's dispatcher: turns recorded events into one delivery row per (event, handler) and
 * runs those rows until each succeeds. At least once: a row is done only after its handler
 * returned, so a process that dies mid-handler leaves it pending under a lease that runs out,
 * and the next run (any process) takes it. A handler that succeeded is never run again for that
 * event (the row is "done"); a failing one is retried with backoff and left "dead" after
 * `maxAttempts`, for an operator to see and retry (/super/outbox).
 * Claims are one conditional UPDATE per batch (on PostgreSQL over `FOR UPDATE SKIP LOCKED`), so
 * two dispatchers never run the same row at the same time while its lease holds.
 */
export const OUTBOX_LIMITS = {
  /** deliveries claimed and run per round */
  batch: 50,
  /** rounds per dispatch call, so one call is bounded (the job or the next wake-up does the rest) */
  rounds: 20,
  /** events fanned out per statement (times the handlers of a type: far below the bind-parameter limits) */
  fanBatch: 100,
  /** attempts before a delivery is dead */
  maxAttempts: 6,
  /** first retry after this long, doubling each time, at most `maxBackoffMs` */
  backoffMs: 30_000,
  maxBackoffMs: 3_600_000,
  /** how long a claimed delivery stays with its process; a slower handler may run twice */
  leaseMs: 120_000,
  /** delivered events are deleted this long after they were recorded */
  retentionDays: 7,
  /** events pruned per dispatch job run */
  pruneBatch: 500,
  /** the dispatch job's interval: leftovers (a process died, a retry came due) wait at most this */
  pollMs: 15_000,
};

export type DeliveryStatus = "pending" | "done" | "dead";

/** This process's name on the deliveries it claims. */
const HOLDER = `${process.pid}-${randomToken(6)}`;

/** Delay before attempt `attempts + 1`, after `attempts` failures. */
export function backoffMs(attempts: number, limits = OUTBOX_LIMITS): number {
  return Math.min(limits.maxBackoffMs, limits.backoffMs * 2 ** Math.max(0, attempts - 1));
}

function handlersOf(ctx: AppContext): Map<string, AnyEventHandler> {
  const out = new Map<string, AnyEventHandler>();
  for (const h of ctx.eventHandlers) {
    if (out.has(h.name)) throw new Error(`two event handlers are named ${h.name}`);
    out.set(h.name, h);
  }
  return out;
}

/**
 * Gives every event recorded since the last call its delivery rows, one per handler of its type
 * registered in this process; an event with none is simply marked. Idempotent: (event, handler)
 * is unique, so two processes fanning out the same event insert its rows once.
 */
async function fanOut(ctx: AppContext, now: Date): Promise<number> {
  const events = await ctx.db
    .selectFrom("outbox_events")
    .select(["id", "type"])
    .where("fanned_out", "=", 0)
    .orderBy("id")
    .limit(OUTBOX_LIMITS.fanBatch)
    .execute();
  if (!events.length) return 0;
  const at = now.toISOString();
  const rows = events.flatMap((e) =>
    ctx.eventHandlers
      .filter((h) => (h.types as readonly string[]).includes(e.type))
      .map((h) => ({ event_id: e.id, handler: h.name, status: "pending", attempts: 0, next_at: at, updated_at: at })),
  );
  await ctx.db.transaction().execute(async (trx) => {
    if (rows.length)
      await trx
        .insertInto("outbox_deliveries")
        .values(rows)
        .onConflict((oc) => oc.columns(["event_id", "handler"]).doNothing())
        .execute();
    await trx
      .updateTable("outbox_events")
      .set({ fanned_out: 1 })
      .where(
        "id",
        "in",
        events.map((e) => e.id),
      )
      .execute();
  });
  return events.length;
}

type Delivery = Pick<OutboxDeliveryTable, "handler" | "attempts"> & { id: number; event_id: number };

/** Takes up to `limit` due deliveries for `holder` until now + leaseMs. */
async function claim(db: Kysely<DB>, holder: string, now: Date, limit: number): Promise<Delivery[]> {
  const at = now.toISOString();
  const free = (eb: ExpressionBuilder<DB, "outbox_deliveries">) =>
    eb.or([eb("lease_until", "is", null), eb("lease_until", "<", at)]);
  let due = db
    .selectFrom("outbox_deliveries")
    .select("id")
    .where("status", "=", "pending")
    .where("next_at", "<=", at)
    .where(free)
    .orderBy("next_at")
    .orderBy("id")
    .limit(limit);
  // Another dispatcher's claim in flight is skipped, not waited for.
  if (isPostgres(db)) due = due.forUpdate().skipLocked();
  // The conditions again on the outer statement: under READ COMMITTED a row claimed meanwhile is
  // re-checked after its lock is released, and then no longer matches.
  const rows = await db
    .updateTable("outbox_deliveries")
    .set({ holder, lease_until: new Date(now.getTime() + OUTBOX_LIMITS.leaseMs).toISOString() })
    .where("id", "in", due)
    .where("status", "=", "pending")
    .where(free)
    .returning(["id", "event_id", "handler", "attempts"])
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), event_id: Number(r.event_id), attempts: Number(r.attempts) }));
}

/** The outcome of one delivery, written only while the lease is still ours. */
async function settle(
  db: Kysely<DB>,
  d: Delivery,
  holder: string,
  now: Date,
  error: string | null,
): Promise<DeliveryStatus> {
  const attempts = d.attempts + 1;
  const status: DeliveryStatus = error === null ? "done" : attempts >= OUTBOX_LIMITS.maxAttempts ? "dead" : "pending";
  await db
    .updateTable("outbox_deliveries")
    .set({
      status,
      attempts,
      holder: null,
      lease_until: null,
      updated_at: now.toISOString(),
      ...(error !== null && {
        last_error: error.slice(0, 2000),
        next_at: new Date(now.getTime() + backoffMs(attempts)).toISOString(),
      }),
    })
    .where("id", "=", d.id)
    .where("holder", "=", holder)
    .execute();
  return status;
}

export interface DispatchResult {
  done: number;
  failed: number;
  dead: number;
}

/**
 * One bounded pass: fans out new events, then claims and runs due deliveries, batch after batch,
 * until none is due (or `rounds` batches ran). Safe to run in several processes at once.
 * `holder` and `now` are for tests (a second process, a later clock).
 */
export async function dispatchOutbox(
  ctx: AppContext,
  opts: { holder?: string; now?: () => Date } = {},
): Promise<DispatchResult> {
  const holder = opts.holder ?? HOLDER;
  const clock = opts.now ?? (() => new Date());
  const handlers = handlersOf(ctx);
  const out: DispatchResult = { done: 0, failed: 0, dead: 0 };
  while ((await fanOut(ctx, clock())) === OUTBOX_LIMITS.fanBatch);
  for (let round = 0; round < OUTBOX_LIMITS.rounds; round++) {
    const claimed = await claim(ctx.db, holder, clock(), OUTBOX_LIMITS.batch);
    if (!claimed.length) break;
    const events = await loadEvents(ctx.db, [...new Set(claimed.map((d) => d.event_id))]);
    for (const d of claimed) {
      const handler = handlers.get(d.handler);
      const event = events.get(d.event_id);
      let error: string | null = null;
      if (!handler) {
        // A handler this version does not have (removed, or a newer process's): a failure an
        // operator sees, rather than a row silently claimed for ever.
        error = `no handler named ${d.handler} in this process`;
      } else if (!event) {
        error = `event ${d.event_id} is gone`;
      } else {
        try {
          await handler.handle(ctx, event);
        } catch (err) {
          error = err instanceof Error ? err.message || err.name : String(err);
          ctx.log.warn({ err, handler: d.handler, event: d.event_id }, "event handler failed");
        }
      }
      const status = await settle(ctx.db, d, holder, clock(), error);
      if (status === "done") out.done++;
      else if (status === "dead") out.dead++;
      else out.failed++;
    }
    if (claimed.length < OUTBOX_LIMITS.batch) break;
  }
  return out;
}

async function loadEvents(db: Kysely<DB>, ids: number[]): Promise<Map<number, DomainEvent>> {
  const rows = await db.selectFrom("outbox_events").selectAll().where("id", "in", ids).execute();
  return new Map(
    rows.map((r) => [
      Number(r.id),
      {
        id: Number(r.id),
        type: r.type as DomainEventType,
        payload: JSON.parse(r.payload),
        uid: r.uid === null ? null : Number(r.uid),
        created_at: r.created_at,
      } as DomainEvent,
    ]),
  );
}

/**
 * Deletes events older than the retention whose every delivery is done (and those no handler
 * took), with their deliveries; a dead or pending delivery keeps its event. Bounded per call.
 */
export async function pruneOutbox(ctx: AppContext, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - OUTBOX_LIMITS.retentionDays * 86_400_000).toISOString();
  const old = await ctx.db
    .selectFrom("outbox_events as e")
    .select("e.id")
    .where("e.created_at", "<", cutoff)
    .where("e.fanned_out", "=", 1)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("outbox_deliveries as d")
            .select("d.id")
            .whereRef("d.event_id", "=", "e.id")
            .where("d.status", "!=", "done"),
        ),
      ),
    )
    .orderBy("e.id")
    .limit(OUTBOX_LIMITS.pruneBatch)
    .execute();
  const ids = old.map((r) => Number(r.id));
  if (!ids.length) return 0;
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom("outbox_deliveries").where("event_id", "in", ids).execute();
    await trx.deleteFrom("outbox_events").where("id", "in", ids).execute();
  });
  return ids.length;
}

/** The lease-guarded job: leftovers of dead processes, retries come due, pruning. */
export const outboxJob: JobDef = {
  name: "outbox.dispatch",
  everyMs: OUTBOX_LIMITS.pollMs,
  run: async (ctx) => ({ ...(await dispatchOutbox(ctx)), pruned: await pruneOutbox(ctx) }),
};

/**
 * Dispatches in this process right after a commit that recorded events (the "outbox.recorded"
 * change event: from this process, or from another through Redis). Wake-ups during a pass make
 * one more pass afterwards, never two at once. Returns a stop function that waits for the pass
 * in progress.
 */
export function startOutboxWakeups(ctx: AppContext): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const pass = (): Promise<void> =>
    dispatchOutbox(ctx).then(
      () => undefined,
      (err) => ctx.log.error({ err }, "outbox dispatch failed"),
    );
  const wake = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        await pass();
      } while (again && !stopped);
    })().finally(() => {
      running = null;
    });
  };
  ctx.events.on(OUTBOX_WAKE, wake);
  return async () => {
    stopped = true;
    await running;
  };
}
