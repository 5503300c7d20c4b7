import { z } from "zod";
import { PageQuery } from "./common";

/**
 * The catalogue of notice events (docs/notices.md): which domain events reach people, whom
 * (customers, or the staff for operator events), by which channels by default, and which are
 * urgent (the only ones that may go by SMS). Read by the notices module (centre, e-mail, SMS) and
 * by customer webhooks; the labels are the ones the settings page and the notice list show.
 */
export const NoticeChannels = ["site", "email", "sms"] as const;
export type NoticeChannel = (typeof NoticeChannels)[number];
export const NoticeChannelLabel: Record<NoticeChannel, string> = {
  site: "站内",
  email: "邮件",
  sms: "短信",
};

/** customer: the account the event concerns; staff: every Manager (operator events). */
export type NoticeAudience = "customer" | "staff";

export interface NoticeEventSpec {
  label: string;
  audience: NoticeAudience;
  /** urgent events may also go by SMS (never the others) */
  urgent: boolean;
  /** the channels on until the person chooses otherwise ("site" is always on) */
  defaults: readonly NoticeChannel[];
}

export const NoticeEvents = {
  "tunnel.offline": { label: "隧道离线", audience: "customer", urgent: true, defaults: ["site", "email"] },
  "tunnel.online": { label: "隧道恢复上线", audience: "customer", urgent: false, defaults: ["site"] },
  "quota.80": { label: "流量已用 80%", audience: "customer", urgent: false, defaults: ["site", "email"] },
  "quota.95": { label: "流量已用 95%", audience: "customer", urgent: false, defaults: ["site", "email"] },
  "quota.100": { label: "流量已用尽", audience: "customer", urgent: true, defaults: ["site", "email", "sms"] },
  "plan.expiring": { label: "套餐即将到期", audience: "customer", urgent: false, defaults: ["site", "email"] },
  "plan.expired": { label: "套餐已到期", audience: "customer", urgent: true, defaults: ["site", "email", "sms"] },
  "order.paid": { label: "订单已支付", audience: "customer", urgent: false, defaults: ["site"] },
  "order.refunded": { label: "订单已退款", audience: "customer", urgent: false, defaults: ["site", "email"] },
  "ticket.replied": { label: "工单有新回复", audience: "customer", urgent: false, defaults: ["site", "email"] },
  "auth.new_device": { label: "新设备登录", audience: "customer", urgent: false, defaults: ["site", "email"] },
  "subscription.renewal_due": {
    label: "即将自动续费",
    audience: "customer",
    urgent: false,
    defaults: ["site", "email"],
  },
  "subscription.renewal_failed": {
    label: "自动续费失败",
    audience: "customer",
    urgent: true,
    defaults: ["site", "email", "sms"],
  },
  "traffic.topup_failed": {
    label: "自动购买流量包失败",
    audience: "customer",
    urgent: false,
    defaults: ["site", "email"],
  },
  "node.maintenance": { label: "节点维护", audience: "customer", urgent: false, defaults: ["site", "email"] },
  "webhook.paused": { label: "Webhook 已暂停", audience: "customer", urgent: false, defaults: ["site", "email"] },
  "cert.expiring": { label: "证书即将到期", audience: "customer", urgent: false, defaults: ["site", "email"] },
  "cert.renewed": { label: "证书已续期", audience: "customer", urgent: false, defaults: ["site"] },
  "domain.verification_lost": {
    label: "域名验证失效",
    audience: "customer",
    urgent: false,
    defaults: ["site", "email"],
  },
  "node.down": { label: "节点离线", audience: "staff", urgent: true, defaults: ["site", "email", "sms"] },
  "node.up": { label: "节点恢复", audience: "staff", urgent: false, defaults: ["site", "email"] },
  "payment.failing": { label: "支付持续失败", audience: "staff", urgent: false, defaults: ["site", "email"] },
  "queue.waiting": { label: "待办等待过久", audience: "staff", urgent: false, defaults: ["site"] },
} as const satisfies Record<string, NoticeEventSpec>;

export type NoticeEventType = keyof typeof NoticeEvents;
export const NoticeEventTypes = Object.keys(NoticeEvents) as NoticeEventType[];

/** The channels a person may choose for an event: SMS only for urgent ones. */
export function noticeChannelsOf(type: NoticeEventType): readonly NoticeChannel[] {
  const spec: NoticeEventSpec = NoticeEvents[type];
  return spec.urgent ? NoticeChannels : NoticeChannels.filter((c) => c !== "sms");
}

/** One item of the notification centre. */
export interface NoticeView {
  id: number;
  type: string;
  /** the event's label (NoticeEvents), or the type when unknown */
  label: string;
  title: string;
  body: string;
  /** a console path to open, or null */
  link: string | null;
  read: boolean;
  created_at: string;
}

export const NoticeListQuery = PageQuery.extend({
  /** "1": unread only */
  unread: z.preprocess((v) => (v === "" || v === undefined ? undefined : v), z.enum(["0", "1"]).optional()),
});
export type NoticeListQuery = z.infer<typeof NoticeListQuery>;

export const NoticeParams = z.object({ id: z.coerce.number().int().min(1) });

/** One event type as the settings page shows it. */
export interface NoticePrefView {
  type: NoticeEventType;
  label: string;
  urgent: boolean;
  /** the channels this event may use (SMS only for urgent ones) */
  allowed: NoticeChannel[];
  /** the channels on now ("site" always) */
  channels: NoticeChannel[];
}

export interface NoticeSettings {
  events: NoticePrefView[];
  email: {
    /** the notice address, or null when none was set */
    address: string | null;
    verified: boolean;
    /** false: the server has no SMTP configured, so nothing goes by mail */
    available: boolean;
    /** why the e-mail channel is off, or null */
    reason: string | null;
  };
  sms: { available: boolean; reason: string | null };
}

export const NoticePrefBody = z.object({
  type: z.enum(NoticeEventTypes as [NoticeEventType, ...NoticeEventType[]], { error: "没有这种通知" }),
  channels: z.array(z.enum(NoticeChannels, { error: "没有这种通知方式" })).max(3),
});
export type NoticePrefBody = z.infer<typeof NoticePrefBody>;

export const NoticeEmailBody = z.object({
  email: z
    .string({ error: "请输入邮箱" })
    .trim()
    .max(100, "邮箱最多 100 个字符")
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "邮箱格式不正确"),
});
export type NoticeEmailBody = z.infer<typeof NoticeEmailBody>;

export const NoticeEmailCodeBody = z.object({
  code: z
    .string({ error: "请输入验证码" })
    .trim()
    .regex(/^\d{6}$/, "验证码为 6 位数字"),
});
export type NoticeEmailCodeBody = z.infer<typeof NoticeEmailCodeBody>;
