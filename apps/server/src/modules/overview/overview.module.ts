import type { ModuleManifest } from "../../shared/module";
import { overviewRoutes } from "./overview.routes";
import { watchQueues } from "./queue-watch";

/** The operator's overview: reads every module's waiting counters from the app's manifests. */
export const overviewModule: ModuleManifest = {
  name: "overview",
  routes: overviewRoutes,
  // queues left waiting a day tell the Managers (queue.waiting)
  jobs: () => [{ name: "overview.queue-watch", everyMs: 600_000, run: (ctx) => watchQueues(ctx) }],
};
