import type { AppContext } from "../../context";
import { readFigures } from "../../shared/figures";
import { recordEvent } from "../../shared/outbox";
import { waitingCounters } from "../../shared/overview-counters";
import { getSetting, setSetting } from "../../shared/settings";
import { transact } from "../../shared/tx";

/** A queue that has not been empty for this long records "queue.waiting" (the operators' notice). */
export const QUEUE_WAIT_LIMIT_MS = 24 * 3_600_000;
const sinceKey = (key: string) => `queue_waiting_since:${key}`;

/**
 * Job (every 10 minutes): reads every module's waiting counter; remembers when each queue was
 * first seen not empty (a setting, cleared when it empties) and records "queue.waiting" once it has
 * stayed so for QUEUE_WAIT_LIMIT_MS, once per such stretch (the key holds its start).
 */
export async function watchQueues(ctx: AppContext, now = new Date()): Promise<number> {
  const counters = waitingCounters(ctx);
  if (!counters.length) return 0;
  const counts = await readFigures(ctx.db, Object.fromEntries(counters.map((c) => [c.key, c.count(ctx.db)])));
  let recorded = 0;
  for (const c of counters) {
    const count = counts[c.key] ?? 0;
    const since = await getSetting(ctx.db, sinceKey(c.key));
    if (count <= 0) {
      if (since) await setSetting(ctx.db, sinceKey(c.key), "");
      continue;
    }
    if (!since) {
      await setSetting(ctx.db, sinceKey(c.key), now.toISOString());
      continue;
    }
    if (now.getTime() - Date.parse(since) < QUEUE_WAIT_LIMIT_MS) continue;
    const id = await transact(ctx, (trx) =>
      recordEvent(
        trx,
        "queue.waiting",
        { key: c.key, label: c.label, path: c.path, count, oldest_at: since },
        // recorded at the real time: `now` only decides whether it has waited long enough
        { key: `queue.waiting:${c.key}:${since}` },
      ),
    );
    if (id !== null) recorded++;
  }
  return recorded;
}
