import type { ModuleManifest } from "../../shared/module";
import { deliverWebhooks, enqueueWebhooks, pruneWebhookLog } from "./delivery";
import { webhooksRoutes } from "./webhooks.routes";

/** Customer webhooks (docs/webhooks.md): endpoints, the outbox handler that queues, the worker that posts. */
export const webhooksModule: ModuleManifest = {
  name: "webhooks",
  routes: webhooksRoutes,
  eventHandlers: [enqueueWebhooks],
  jobs: () => [
    // Queued deliveries go out within seconds; retries come due on this tick too.
    { name: "webhooks.deliver", everyMs: 5_000, run: async (ctx) => deliverWebhooks(ctx) },
    { name: "webhooks.prune", everyMs: 3_600_000, run: async (ctx) => ({ pruned: await pruneWebhookLog(ctx) }) },
  ],
};
