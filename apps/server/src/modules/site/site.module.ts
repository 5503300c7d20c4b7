import type { ModuleManifest } from "../../shared/module";
import { siteRoutes } from "./site.routes";

/** The public site settings. */
export const siteModule: ModuleManifest = { name: "site", routes: siteRoutes };
