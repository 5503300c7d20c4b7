import type { ModuleManifest } from "../../shared/module";
import { secretRoutes } from "./secret.routes";
import { releaseNodeHolds } from "./sessions";
import { shieldRoutes } from "./shield.routes";
import { pruneTunnelEvents } from "./tunnel-events";
import { tunnelsRoutes } from "./tunnels.routes";

/** Customers' tunnels, their sessions on the nodes, and operators' rules against illegal use. */
export const tunnelsModule: ModuleManifest = {
  name: "tunnels",
  routes: (app, ctx) => {
    tunnelsRoutes(app, ctx);
    shieldRoutes(app, ctx);
    secretRoutes(app, ctx);
  },
  nodeDeletedHooks: [releaseNodeHolds],
  // 连接诊断's rows: 7 days, bounded per tunnel
  jobs: () => [{ name: "tunnels.events.prune", everyMs: 3_600_000, run: (ctx) => pruneTunnelEvents(ctx) }],
};
