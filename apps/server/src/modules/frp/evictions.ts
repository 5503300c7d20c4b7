import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import type { EventBus } from "../../shared/events";

/**
 * 强制下线's sessions (frp_evictions), in memory for the plugin: a run id freed by its customer is
 * refused at its heartbeat, Login and NewProxy until its `until`. Loaded whole at start (a handful
 * of rows: each lives 10 minutes) and per customer on `subscription.changed`, which a free
 * announces across processes like the poller's kicks; everything again after a resync.
 */
export class FrpEvictions {
  /** run id → its customer and until (epoch ms) */
  private readonly byRunId = new Map<string, { uid: number; until: number }>();
  /** for tests: resolves once the last reload is in */
  loading: Promise<void>;

  constructor(
    private readonly db: Kysely<DB>,
    events: EventBus,
    private readonly onError: (err: unknown) => void,
  ) {
    this.loading = this.reload();
    events.on("subscription.changed", ({ uid }) => {
      this.loading = this.reload(uid);
    });
    events.onResync(() => {
      this.loading = this.reload();
    });
  }

  /** Whether `runId` of `uid` was freed and is still barred. Nothing to look up in the common case. */
  refused(uid: number, runId: string | undefined): boolean {
    if (this.byRunId.size === 0 || !runId) return false;
    const e = this.byRunId.get(runId);
    if (!e || e.uid !== uid) return false;
    if (e.until > Date.now()) return true;
    this.byRunId.delete(runId);
    return false;
  }

  private async reload(uid?: number): Promise<void> {
    try {
      let q = this.db
        .selectFrom("frp_evictions")
        .select(["uid", "run_id", "until"])
        .where("until", ">", new Date().toISOString());
      if (uid !== undefined) q = q.where("uid", "=", uid);
      const rows = await q.execute();
      if (uid === undefined) this.byRunId.clear();
      else for (const [k, v] of this.byRunId) if (v.uid === uid) this.byRunId.delete(k);
      for (const r of rows) this.byRunId.set(r.run_id, { uid: r.uid, until: Date.parse(r.until) });
    } catch (err) {
      this.onError(err);
    }
  }
}
