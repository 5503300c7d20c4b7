import type { ModuleManifest } from "../../shared/module";
import { overviewRoutes } from "./overview.routes";

/** The operator's overview: reads every module's waiting counters from the app's manifests. */
export const overviewModule: ModuleManifest = { name: "overview", routes: overviewRoutes };
