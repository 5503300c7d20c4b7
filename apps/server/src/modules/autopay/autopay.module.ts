import type { ModuleManifest } from "../../shared/module";
import { autopayRoutes } from "./autopay.routes";
import { runAutoRenewals } from "./renew";

/**
 * Automatic purchases from the balance (docs/billing.md "Automatic purchases"): auto-renewal by a
 * job; traffic top-ups where usage is charged (the frp poller's billing calls evaluateTopups).
 */
export const autopayModule: ModuleManifest = {
  name: "autopay",
  routes: autopayRoutes,
  jobs: (ctx) => [{ name: "autopay.renew", everyMs: ctx.config.JOBS_INTERVAL * 1000, run: (c) => runAutoRenewals(c) }],
};
