import type { ModuleManifest } from "../../shared/module";
import { storeRoutes } from "./store.routes";

/** The store's catalogue. */
export const storeModule: ModuleManifest = { name: "store", routes: storeRoutes };
