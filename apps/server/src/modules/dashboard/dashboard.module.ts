import type { ModuleManifest } from "../../shared/module";
import { dashboardRoutes } from "./dashboard.routes";

/** The customer's dashboard and announcements. */
export const dashboardModule: ModuleManifest = { name: "dashboard", routes: dashboardRoutes };
