import type { ModuleManifest } from "../../shared/module";
import { forgetNode } from "./forget-node";
import { flushFrp, frpRoutes, frpState, startFrpPoller, stopFrpPoller } from "./frp.routes";
import { installPluginFastPath } from "./plugin-http";

/**
 * The frp control plane: the frps plugin (its fast path in front of Fastify and its route), the
 * node poller (FRP_POLLER overrides the background rule), and the write-behind writer drained last.
 */
export const frpModule: ModuleManifest = {
  name: "frp",
  state: [frpState],
  server: installPluginFastPath,
  routes: frpRoutes,
  nodeDeletedHooks: [forgetNode],
  background: (config) => config.FRP_POLLER,
  start: startFrpPoller,
  stop: stopFrpPoller,
  drain: flushFrp,
};
