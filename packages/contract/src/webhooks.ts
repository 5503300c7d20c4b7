import { z } from "zod";
import { PageQuery } from "./common";
import { NoticeEvents, type NoticeEventType, NoticeEventTypes } from "./notices";

/**
 * Customer webhooks (docs/webhooks.md): HTTPS endpoints that receive the account's events as signed
 * JSON posts. Managed by console sessions only (a token that could add an endpoint could copy every
 * future event elsewhere).
 */

type CustomerNotice = {
  [K in NoticeEventType]: (typeof NoticeEvents)[K]["audience"] extends "customer" ? K : never;
}[NoticeEventType];

/**
 * The events an endpoint may subscribe to: the customer-visible ones of the notice catalogue
 * (notices.ts), with its Chinese names; operator events never leave the console.
 */
export type WebhookEventType = CustomerNotice;
export const WebhookEventTypes = NoticeEventTypes.filter((t) => NoticeEvents[t].audience === "customer") as [
  WebhookEventType,
  ...WebhookEventType[],
];
export const WebhookEventLabel = Object.fromEntries(WebhookEventTypes.map((t) => [t, NoticeEvents[t].label])) as Record<
  WebhookEventType,
  string
>;

/** The type of the test send's payload (never a real event). */
export const WEBHOOK_TEST_EVENT = "webhook.test";

/** A customer's endpoints, at most. */
export const MAX_WEBHOOK_ENDPOINTS = 10;

export const WebhookUrl = z
  .string()
  .trim()
  .max(500, "地址最多 500 个字符")
  .refine((v) => URL.canParse(v), "请输入完整的 URL，例如 https://example.com/hook")
  .refine((v) => !URL.canParse(v) || /^https?:$/.test(new URL(v).protocol), "地址须以 https:// 开头")
  .refine((v) => !URL.canParse(v) || (!new URL(v).username && !new URL(v).password), "地址中不能包含用户名或密码")
  .refine((v) => !URL.canParse(v) || !new URL(v).hash, "地址中不能包含 #片段");

const Events = z
  .array(z.enum(WebhookEventTypes, { message: "事件类型无效" }))
  .min(1, "请至少选择一个事件")
  .max(WebhookEventTypes.length)
  .transform((s) => [...new Set(s)]);

export const CreateWebhookBody = z.object({
  url: WebhookUrl,
  description: z.string().trim().max(60, "备注最多 60 个字符").default(""),
  events: Events,
});
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;

/** Changes an endpoint: what is given is replaced (the secret never changes). */
export const UpdateWebhookBody = z.object({
  url: WebhookUrl.optional(),
  description: z.string().trim().max(60, "备注最多 60 个字符").optional(),
  events: Events.optional(),
  /** false: pause deliveries; true: resume (the failure count starts again, queued deliveries go out) */
  enabled: z.boolean({ message: "enabled 须为布尔值" }).optional(),
});
export type UpdateWebhookBody = z.infer<typeof UpdateWebhookBody>;

const rowId = (what: string) =>
  z.coerce
    .number({ message: `${what}无效` })
    .int(`${what}无效`)
    .min(1, `${what}无效`)
    .max(2_147_483_647, `${what}无效`);
export const WebhookIdParams = z.object({ id: rowId("Webhook 编号") });
export const WebhookDeliveryParams = z.object({ id: rowId("Webhook 编号"), did: rowId("投递编号") });
export const WebhookDeliveriesQuery = PageQuery;

/** active: delivering; paused: by the customer or automatically after repeated failures (`paused_reason`). */
export type WebhookStatus = "active" | "paused";

export interface WebhookView {
  id: number;
  url: string;
  description: string;
  events: WebhookEventType[];
  status: WebhookStatus;
  /** why it is paused: "manual" (the customer) or "failures" (automatically); null while active */
  paused_reason: "manual" | "failures" | null;
  paused_at: string | null;
  /** failed attempts in a row (reset by a success or a resume) */
  failure_streak: number;
  /** deliveries waiting to be sent (or retried) */
  pending: number;
  created_at: string;
}

/** POST /user/webhook → data: the endpoint with its signing secret, shown this once. */
export interface CreatedWebhook extends WebhookView {
  secret: string;
}

/**
 * pending: waiting for its (next) attempt; success: a 2xx answer; failed: the last attempt failed
 * and none follows; dropped: never sent (the endpoint's queue was full).
 */
export type WebhookDeliveryStatus = "pending" | "success" | "failed" | "dropped";

export interface WebhookDeliveryView {
  id: number;
  /** the payload's id (`evt_…`): the same on every redelivery of one event */
  event_id: string;
  event_type: string;
  status: WebhookDeliveryStatus;
  /** attempts made so far */
  attempts: number;
  /** the last attempt's HTTP status; null: no answer (refused address, timeout, connection error) */
  response_code: number | null;
  /** the start of the last answer's body (at most 1 KiB) */
  response_excerpt: string | null;
  /** why the last attempt failed, in Chinese; null after a success */
  error: string | null;
  duration_ms: number | null;
  /** the next attempt (pending only) */
  next_at: string | null;
  last_attempt_at: string | null;
  created_at: string;
  /** the delivery this one resends (a redelivery), else null */
  redelivery_of: number | null;
}
