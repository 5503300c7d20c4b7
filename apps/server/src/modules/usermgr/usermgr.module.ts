import type { ModuleManifest } from "../../shared/module";
import { usermgrRoutes } from "./usermgr.routes";

/** Operators' view and edits of users (the overview has its own module). */
export const usermgrModule: ModuleManifest = { name: "usermgr", routes: usermgrRoutes };
