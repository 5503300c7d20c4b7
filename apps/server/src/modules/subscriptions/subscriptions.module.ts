import type { ModuleManifest } from "../../shared/module";
import { recordPlansExpiring } from "./expiry-events";
import { subscriptionsRoutes } from "./subscriptions.routes";

/** Customers' subscriptions and quotas. */
export const subscriptionsModule: ModuleManifest = {
  name: "subscriptions",
  routes: subscriptionsRoutes,
  // the 7/3/1-day reminders of a paid plan's end (the expiry itself: orders/jobs.ts)
  jobs: () => [{ name: "subscriptions.expiring", everyMs: 3_600_000, run: (ctx) => recordPlansExpiring(ctx) }],
};
