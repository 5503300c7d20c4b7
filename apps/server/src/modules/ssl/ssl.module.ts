import type { ModuleManifest } from "../../shared/module";
import { advanceDueIssues } from "./acme-steps";
import { recordCertsExpiring } from "./expiry-events";
import { renewDueCertificates } from "./renewals";
import { sslRoutes } from "./ssl.routes";

/** Certificates of customers' verified domains: uploads, ACME issue steps and renewals. */
export const sslModule: ModuleManifest = {
  name: "ssl",
  routes: sslRoutes,
  jobs: (ctx) => [
    { name: "ssl-acme-steps", everyMs: ctx.config.SSL_CHECK_INTERVAL * 1000, run: (c) => advanceDueIssues(c) },
    { name: "ssl-renewals", everyMs: 3600_000, firstDelayMs: 60_000, run: (c) => renewDueCertificates(c) },
    // the customers' notices of certificates about to end (cert.expiring)
    { name: "ssl-expiring", everyMs: 3600_000, firstDelayMs: 90_000, run: (c) => recordCertsExpiring(c) },
  ],
  background: (config) => config.SSL_JOBS,
};
