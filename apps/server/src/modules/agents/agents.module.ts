import type { ModuleManifest } from "../../shared/module";
import { agentsRoutes } from "./agents.routes";
import { agentHub, agentsState } from "./agents.service";
import { nodeCredential } from "./credential";

/**
 * The node agents' side of the console (docs/deploy.md): their credential kind (the node's
 * id and secret), their streams of decision state, lookups and the events they journal.
 */
export const agentsModule: ModuleManifest = {
  name: "agents",
  state: [agentsState],
  setup: (ctx) => ctx.auth.register(nodeCredential(ctx)),
  routes: agentsRoutes,
  // Open streams end with the server, so that agents reconnect to another process at once.
  stop: async (ctx) => agentHub(ctx).closeAll(),
};
