import type { ModuleManifest } from "../../shared/module";
import { downloadsRoutes } from "./downloads.routes";

/** frpc builds for download. */
export const downloadsModule: ModuleManifest = { name: "downloads", routes: downloadsRoutes };
