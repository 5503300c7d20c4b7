import type { ModuleManifest } from "../../shared/module";
import { noticesHandler, pruneNotices, sendDueNotices } from "./deliver";
import { mailer } from "./mail";
import { noticesRoutes } from "./notices.routes";

/**
 * The notification centre, notice e-mail and SMS (docs/notices.md): every event of the contract's
 * notice catalogue becomes a notice for the customer it concerns (operator events: every Manager).
 * Nothing here waits for an operator.
 */
export const noticesModule: ModuleManifest = {
  name: "notices",
  state: [mailer],
  routes: noticesRoutes,
  eventHandlers: [noticesHandler],
  jobs: () => [
    // the debounced (tunnel status) and retried deliveries
    { name: "notices.send", everyMs: 15_000, run: (ctx) => sendDueNotices(ctx, new Date()) },
    { name: "notices.prune", everyMs: 6 * 3_600_000, run: (ctx) => pruneNotices(ctx) },
  ],
};
