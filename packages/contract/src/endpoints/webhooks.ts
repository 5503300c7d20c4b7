import { z } from "zod";
import { pagedAnswer } from "../answers";
import { CreatedWebhookAnswer, WebhookDeliveryViewAnswer, WebhookViewAnswer } from "../answers/webhooks";
import type { Paged } from "../codes";
import { endpoint } from "../endpoint";
import {
  type CreatedWebhook,
  CreateWebhookBody,
  UpdateWebhookBody,
  WebhookDeliveriesQuery,
  WebhookDeliveryParams,
  type WebhookDeliveryView,
  WebhookIdParams,
  type WebhookView,
} from "../webhooks";

/**
 * The customer's webhook endpoints and their delivery logs (docs/webhooks.md). Console sessions
 * only (no token scope): an endpoint receives every event it subscribes to, so a leaked token must
 * not be able to add one.
 */
export const WebhooksApi = {
  getUserWebhook: endpoint<WebhookView[]>()({
    method: "GET",
    url: "/user/webhook",
    access: "user",
    answer: z.array(WebhookViewAnswer),
    summary: "the customer's webhook endpoints (never the secret)",
  }),
  postUserWebhook: endpoint<CreatedWebhook>()({
    method: "POST",
    url: "/user/webhook",
    access: "user",
    answer: CreatedWebhookAnswer,
    summary: "adds a webhook endpoint (https URL, events); the answer holds its signing secret, shown once",
    body: CreateWebhookBody,
  }),
  patchUserWebhookId: endpoint<WebhookView>()({
    method: "PATCH",
    url: "/user/webhook/:id",
    access: "user",
    answer: WebhookViewAnswer,
    summary: "changes an endpoint's URL, note or events, or pauses (enabled: false) / resumes (enabled: true) it",
    params: WebhookIdParams,
    body: UpdateWebhookBody,
  }),
  deleteUserWebhookId: endpoint<null>()({
    method: "DELETE",
    url: "/user/webhook/:id",
    access: "user",
    answer: z.null(),
    summary: "deletes an endpoint with its queue and delivery log",
    params: WebhookIdParams,
  }),
  getUserWebhookIdDeliveries: endpoint<Paged<WebhookDeliveryView>>()({
    method: "GET",
    url: "/user/webhook/:id/deliveries",
    access: "user",
    answer: pagedAnswer(WebhookDeliveryViewAnswer),
    summary: "an endpoint's delivery log, newest first",
    params: WebhookIdParams,
    query: WebhookDeliveriesQuery,
  }),
  postUserWebhookIdTest: endpoint<WebhookDeliveryView>()({
    method: "POST",
    url: "/user/webhook/:id/test",
    access: "user",
    answer: WebhookDeliveryViewAnswer,
    summary: "sends a webhook.test event to the endpoint now and answers the logged delivery",
    params: WebhookIdParams,
  }),
  postUserWebhookIdDeliveriesDidRedeliver: endpoint<WebhookDeliveryView>()({
    method: "POST",
    url: "/user/webhook/:id/deliveries/:did/redeliver",
    access: "user",
    answer: WebhookDeliveryViewAnswer,
    summary: "sends a logged delivery's payload again now (a new log row, the same event id)",
    params: WebhookDeliveryParams,
  }),
} as const;
