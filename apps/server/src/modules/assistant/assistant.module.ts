import type { ModuleManifest } from "../../shared/module";
import { assistantRoutes } from "./assistant.routes";

/** The customers' assistant. */
export const assistantModule: ModuleManifest = { name: "assistant", routes: assistantRoutes };
