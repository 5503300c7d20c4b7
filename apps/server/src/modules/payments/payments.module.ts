import type { ModuleManifest } from "../../shared/module";
import { paymentsRoutes } from "./payments.routes";

/** The payment gateway's callbacks and the sandbox pay page. */
export const paymentsModule: ModuleManifest = { name: "payments", routes: paymentsRoutes };
