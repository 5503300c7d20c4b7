import type { ModuleManifest } from "../../shared/module";
import { trafficRoutes } from "./traffic.routes";

/** Customers' traffic figures. */
export const trafficModule: ModuleManifest = { name: "traffic", routes: trafficRoutes };
