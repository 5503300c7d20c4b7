import type { ModuleManifest } from "../../shared/module";
import { domainsRoutes } from "./domains.routes";
import { recheckDomains } from "./domains.service";

/** Customers' custom domains: ownership checks, and a daily re-check of verified ones. */
export const domainsModule: ModuleManifest = {
  name: "domains",
  routes: domainsRoutes,
  jobs: () => [
    { name: "domains.recheck", everyMs: 24 * 3_600_000, firstDelayMs: 60_000, run: (ctx) => recheckDomains(ctx) },
  ],
};
