import { z } from "zod";
import { PageQuery } from "./common";

/**
 * Domain-event deliveries (the server's outbox, docs/decisions.md): one row per event and
 * handler. Operators list the failed ones ("dead": gave up after the last attempt) and retry them.
 */
export const OutboxDeliveryStatus = ["pending", "done", "dead"] as const;
export type OutboxDeliveryStatus = (typeof OutboxDeliveryStatus)[number];
export const OutboxDeliveryStatusLabel: Record<OutboxDeliveryStatus, string> = {
  pending: "待投递",
  done: "已完成",
  dead: "已放弃",
};

/** What each event type means, in Chinese (an unknown type shows as recorded). */
export const OutboxEventTypeLabel: Record<string, string> = {
  "order.paid": "订单已支付",
  "tunnel.offline": "隧道离线",
  "tunnel.online": "隧道上线",
  "quota.80": "流量已用 80%",
  "auth.new_device": "新设备登录",
  "quota.95": "流量已用 95%",
  "quota.100": "流量已用尽",
  "plan.expiring": "套餐即将到期",
  "plan.expired": "套餐已到期",
  "order.refunded": "订单已退款",
  "ticket.replied": "工单有新回复",
  "cert.expiring": "证书即将到期",
  "cert.renewed": "证书已续期",
  "domain.verification_lost": "域名验证失效",
  "node.down": "节点离线",
  "node.up": "节点恢复",
  "payment.failing": "支付持续失败",
  "queue.waiting": "待办等待过久",
  "node.maintenance": "节点维护通知",
  "subscription.renewal_due": "套餐即将自动续费",
  "subscription.renewal_failed": "自动续费失败",
  "webhook.paused": "Webhook 已暂停",
  "traffic.topup_failed": "自动购买流量包失败",
};

export const OutboxDeliveryQuery = PageQuery.extend({
  status: z.preprocess(
    (v) => (v === "" || v === undefined ? "dead" : v),
    z.enum(OutboxDeliveryStatus, { error: "没有这种状态" }),
  ),
});
export type OutboxDeliveryQuery = z.infer<typeof OutboxDeliveryQuery>;

export const OutboxDeliveryParams = z.object({ id: z.coerce.number().int().min(1) });

export interface OutboxDelivery {
  id: number;
  event_id: number;
  event_type: string;
  event_label: string;
  /** the event's payload (JSON) */
  payload: string;
  /** the customer concerned, or null */
  uid: number | null;
  handler: string;
  status: OutboxDeliveryStatus;
  attempts: number;
  /** the last failure's message, null when none failed */
  last_error: string | null;
  /** when the next attempt is due (pending), ISO */
  next_at: string;
  event_at: string;
  updated_at: string;
}
