import type { ModuleManifest } from "../../shared/module";
import { nodesRoutes } from "./nodes.routes";

/** The frps nodes: catalogue, set-up and health. */
export const nodesModule: ModuleManifest = { name: "nodes", routes: nodesRoutes };
