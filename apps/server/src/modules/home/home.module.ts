import type { ModuleManifest } from "../../shared/module";
import { homeRoutes } from "./home.routes";

/** The public home page. */
export const homeModule: ModuleManifest = { name: "home", routes: homeRoutes };
