import type { ModuleManifest } from "../../shared/module";
import { settingsRoutes } from "./settings.routes";

/** The site-wide settings page: gathers the owners' settings and the configuration in force. */
export const settingsModule: ModuleManifest = { name: "settings", routes: settingsRoutes };
