import type { ModuleManifest } from "../../shared/module";
import { storeJobs } from "./jobs";
import { ordersRoutes } from "./orders.routes";
import { ordersByStatus } from "./stats";

/** Orders and their payment, refunds, and the jobs closing unpaid orders and expiring subscriptions. */
export const ordersModule: ModuleManifest = {
  name: "orders",
  routes: ordersRoutes,
  setup: (ctx) =>
    ctx.metrics.gauge("burrow_orders", "orders by payment state (whole database)", "state", () =>
      ordersByStatus(ctx.db),
    ),
  jobs: (ctx) => storeJobs(ctx.config.JOBS_INTERVAL * 1000),
};
