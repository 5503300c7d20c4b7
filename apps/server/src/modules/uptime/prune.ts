import type { AppContext } from "../../context";
import { DAY_MS } from "../../shared/time";
import { pruneMaintenance } from "./maintenance";
import { pruneChanges } from "./uptime.repository";

/** How long the history is kept: the bars' 90 days (each subject's last change before is kept too). */
export const RETAIN_DAYS = 90;

/** The pruning job: changes and maintenance windows older than the retention go. */
export async function pruneUptime(ctx: AppContext, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - RETAIN_DAYS * DAY_MS).toISOString();
  await pruneMaintenance(ctx, cutoff);
  return pruneChanges(ctx.db, cutoff);
}
