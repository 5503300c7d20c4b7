import { type CreateWebhookBody, type UpdateWebhookBody, WebhooksApi } from "@burrow/contract";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";

export const webhookKeys = {
  all: ["webhooks"] as const,
  deliveries: (id: number, page: number) => ["webhooks", id, "deliveries", page] as const,
};

/** GET /user/webhook: the customer's endpoints (never the secrets). */
export const webhooksQuery = () =>
  queryOptions({
    queryKey: webhookKeys.all,
    queryFn: ({ signal }) => api.call(WebhooksApi.getUserWebhook, {}, { signal }),
  });

/** GET /user/webhook/:id/deliveries: one endpoint's log, newest first. */
export const deliveriesQuery = (id: number, page: number) =>
  queryOptions({
    queryKey: webhookKeys.deliveries(id, page),
    queryFn: ({ signal }) =>
      api.call(WebhooksApi.getUserWebhookIdDeliveries, { params: { id }, query: { page, size: 10 } }, { signal }),
    placeholderData: keepPreviousData,
  });

/** POST /user/webhook: the answer holds the signing secret, this once. */
export const createWebhook = (body: CreateWebhookBody) => api.call(WebhooksApi.postUserWebhook, { body });

/** PATCH /user/webhook/:id: `enabled` pauses or resumes. */
export const updateWebhook = (id: number, body: UpdateWebhookBody) =>
  api.call(WebhooksApi.patchUserWebhookId, { params: { id }, body });

export const deleteWebhook = (id: number) => api.call(WebhooksApi.deleteUserWebhookId, { params: { id } });

/** POST /user/webhook/:id/test: sent now; answers the logged delivery. */
export const sendTestWebhook = (id: number) => api.call(WebhooksApi.postUserWebhookIdTest, { params: { id } });

export const redeliverWebhook = (id: number, did: number) =>
  api.call(WebhooksApi.postUserWebhookIdDeliveriesDidRedeliver, { params: { id, did } });
