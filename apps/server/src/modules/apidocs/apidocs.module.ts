import type { ModuleManifest } from "../../shared/module";
import { apidocsRoutes } from "./apidocs.routes";

/** The API reference (/api/docs, /api/openapi.json). */
export const apidocsModule: ModuleManifest = { name: "apidocs", routes: apidocsRoutes };
