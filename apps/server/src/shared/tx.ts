import type { Kysely } from "kysely";
import type { DB } from "../db/schema";
import type { ChangeEventName, ChangeEvents, EventBus } from "./events";

/** Where a write announces what it changed; the announcement goes out once the write is visible. */
export interface ChangeSink {
  emit<K extends ChangeEventName>(name: K, payload: ChangeEvents[K]): void;
}

/**
 * A database handle that carries its change events: the owners of users, subscriptions, tunnels
 * and nodes take it for every write and announce the change themselves (`trx.changes.emit`).
 * From `transact` the events wait for the commit (an event inside the transaction would let the
 * frp decision cache reload the old rows) and are dropped on a rollback; from `direct` each
 * statement commits on its own, so they go out at once. A plain `Kysely<DB>` is not a Tx, so the
 * compiler finds every write path that could forget its event.
 */
export type Tx = Kysely<DB> & { readonly changes: ChangeSink };

interface HasDb {
  db: Kysely<DB>;
  events: EventBus;
}

/**
 * Runs `fn` in a transaction and publishes the change events it raised after the commit, each
 * distinct event once, in the order first raised.
 */
export async function transact<T>(ctx: HasDb, fn: (trx: Tx) => Promise<T>): Promise<T> {
  const pending = new Map<string, [ChangeEventName, ChangeEvents[ChangeEventName]]>();
  const changes: ChangeSink = {
    emit(name, payload) {
      pending.set(`${name} ${JSON.stringify(payload)}`, [name, payload]);
    },
  };
  const out = await ctx.db.transaction().execute((trx) => fn(Object.assign(trx, { changes })));
  for (const [name, payload] of pending.values()) ctx.events.emit(name, payload as never);
  return out;
}

/** A handle outside any transaction: every statement commits by itself, its events go out at once. */
export function direct(ctx: HasDb): Tx {
  // A second Kysely over the same executor (no new connection, no plugin).
  return Object.assign(ctx.db.withTables<Record<never, never>>(), { changes: ctx.events });
}
