import type { ModuleManifest } from "../../shared/module";
import { menuRoutes } from "./menu.routes";

/** The menus by role: a page without its entry answers 403. */
export const menuModule: ModuleManifest = { name: "menu", routes: menuRoutes };
