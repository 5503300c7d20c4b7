import { WebhooksApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { listDeliveries, redeliver, sendTest } from "./delivery";
import { createWebhook, deleteWebhook, listWebhooks, updateWebhook } from "./webhooks.service";

/** The customer's webhooks: console sessions only (the entries name no token scope). */
export function webhooksRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, WebhooksApi.getUserWebhook, ({ user }) => listWebhooks(ctx, user.uid));
  defineRoute(app, ctx, WebhooksApi.postUserWebhook, ({ user, body }) => createWebhook(ctx, user.uid, body));
  defineRoute(app, ctx, WebhooksApi.patchUserWebhookId, ({ user, params, body }) =>
    updateWebhook(ctx, user.uid, params.id, body),
  );
  defineRoute(app, ctx, WebhooksApi.deleteUserWebhookId, ({ user, params }) => deleteWebhook(ctx, user.uid, params.id));
  defineRoute(app, ctx, WebhooksApi.getUserWebhookIdDeliveries, ({ user, params, query }) =>
    listDeliveries(ctx, user.uid, params.id, query),
  );
  defineRoute(app, ctx, WebhooksApi.postUserWebhookIdTest, ({ user, params }) => sendTest(ctx, user.uid, params.id));
  defineRoute(app, ctx, WebhooksApi.postUserWebhookIdDeliveriesDidRedeliver, ({ user, params }) =>
    redeliver(ctx, user.uid, params.id, params.did),
  );
}
