import type { ModuleManifest } from "../../shared/module";
import { reachRoutes } from "./reach.routes";
import { pruneReachChecks, reachState } from "./reach.service";

/** 外网检测: a customer's tunnel checked from the internet side (docs/reach.md). */
export const reachModule: ModuleManifest = {
  name: "reach",
  state: [reachState],
  routes: reachRoutes,
  jobs: () => [{ name: "reach.prune", everyMs: 3_600_000, run: (ctx) => pruneReachChecks(ctx) }],
};
