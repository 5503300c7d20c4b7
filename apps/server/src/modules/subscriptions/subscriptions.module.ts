import type { ModuleManifest } from "../../shared/module";
import { subscriptionsRoutes } from "./subscriptions.routes";

/** Customers' subscriptions and quotas. */
export const subscriptionsModule: ModuleManifest = { name: "subscriptions", routes: subscriptionsRoutes };
