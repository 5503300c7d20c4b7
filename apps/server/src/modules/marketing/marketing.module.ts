import type { ModuleManifest } from "../../shared/module";
import { marketingRoutes } from "./marketing.routes";

/** Discount codes, gift cards and recharge promotions. */
export const marketingModule: ModuleManifest = { name: "marketing", routes: marketingRoutes };
