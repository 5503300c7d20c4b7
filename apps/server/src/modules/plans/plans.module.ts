import type { ModuleManifest } from "../../shared/module";
import { plansRoutes } from "./plans.routes";

/** Plans and their levels. */
export const plansModule: ModuleManifest = { name: "plans", routes: plansRoutes };
