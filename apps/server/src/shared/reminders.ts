import type { AppContext } from "../context";
import { type DomainEvents, type DomainEventType, recordEvent } from "./outbox";
import { DAY_MS } from "./time";
import { transact } from "./tx";

/**
 * Reminder events before an end (a plan's, a certificate's): for each item ending within the
 * largest of `days` (ascending, e.g. [1, 3, 7]), records `type` for the nearest of them the end is
 * within, keyed by the item, its end and that day, so each reminder is recorded once and a moved
 * end (a renewal) starts them over. Returns how many were recorded now.
 */
export async function recordReminders<K extends DomainEventType, T extends { end: string; id: number }>(
  ctx: AppContext,
  type: K,
  items: readonly T[],
  days: readonly number[],
  payload: (item: T, daysLeft: number) => DomainEvents[K],
  now: Date,
): Promise<number> {
  let recorded = 0;
  for (const item of items) {
    const left = Date.parse(item.end) - now.getTime();
    const day = days.find((d) => left <= d * DAY_MS);
    if (day === undefined || left <= 0) continue;
    const id = await transact(ctx, (trx) =>
      // Recorded at the real time: `now` only decides which reminder is due.
      recordEvent(trx, type, payload(item, day), { key: `${type}:${item.id}:${item.end}:${day}` }),
    );
    if (id !== null) recorded++;
  }
  return recorded;
}

/** The latest end `recordReminders` looks at: `now` plus the largest of `days`. */
export const reminderHorizon = (days: readonly number[], now: Date): string =>
  new Date(now.getTime() + Math.max(...days) * DAY_MS).toISOString();
