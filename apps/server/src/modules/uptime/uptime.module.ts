import type { AppContext } from "../../context";
import type { ModuleManifest } from "../../shared/module";
import { DAY_MS } from "../../shared/time";
import { uptimeHistory } from "./history";
import { pruneMaintenance } from "./maintenance";
import { pruneChanges } from "./uptime.repository";
import { serveBadge, uptimeRoutes } from "./uptime.routes";
import { publicCache } from "./uptime.service";

/** How long the history is kept: the bars' 90 days (each subject's last change before is kept too). */
export const RETAIN_DAYS = 90;

/** The daily pruning: changes and maintenance windows older than the retention go. */
export async function pruneUptime(ctx: AppContext, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - RETAIN_DAYS * DAY_MS).toISOString();
  await pruneMaintenance(ctx, cutoff);
  return pruneChanges(ctx.db, cutoff);
}

/** Uptime history, per-tunnel public status pages and badges, the provider status page, maintenance (docs/uptime.md). */
export const uptimeModule: ModuleManifest = {
  name: "uptime",
  state: [publicCache],
  routes: uptimeRoutes,
  server: serveBadge,
  eventHandlers: [uptimeHistory],
  jobs: () => [{ name: "uptime.prune", everyMs: 6 * 3600_000, run: (ctx) => pruneUptime(ctx) }],
};
