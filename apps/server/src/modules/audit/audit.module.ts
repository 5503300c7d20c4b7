import type { ModuleManifest } from "../../shared/module";
import { auditRoutes } from "./audit.routes";

/** The audit log operators read. */
export const auditModule: ModuleManifest = { name: "audit", routes: auditRoutes };
