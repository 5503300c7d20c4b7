import type { ModuleManifest } from "../../shared/module";
import { releaseNodeHolds } from "./sessions";
import { tunnelsRoutes } from "./tunnels.routes";

/** Customers' tunnels, their sessions on the nodes, and operators' rules against illegal use. */
export const tunnelsModule: ModuleManifest = {
  name: "tunnels",
  routes: tunnelsRoutes,
  nodeDeletedHooks: [releaseNodeHolds],
};
