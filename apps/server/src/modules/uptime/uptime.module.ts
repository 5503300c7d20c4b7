import type { ModuleManifest } from "../../shared/module";
import { uptimeHistory } from "./history";
import { pruneUptime } from "./prune";
import { serveBadge, uptimeRoutes } from "./uptime.routes";
import { publicCache } from "./uptime.service";

/** Uptime history, per-tunnel public status pages and badges, the provider status page, maintenance (docs/uptime.md). */
export const uptimeModule: ModuleManifest = {
  name: "uptime",
  state: [publicCache],
  routes: uptimeRoutes,
  server: serveBadge,
  eventHandlers: [uptimeHistory],
  jobs: () => [{ name: "uptime.prune", everyMs: 6 * 3600_000, run: (ctx) => pruneUptime(ctx) }],
};
