import type { ModuleManifest } from "../../shared/module";
import { downloadsRoutes, servePublicFiles } from "./downloads.routes";

/** frpc builds for download, and the node agent's bundle. */
export const downloadsModule: ModuleManifest = { name: "downloads", routes: downloadsRoutes, server: servePublicFiles };
