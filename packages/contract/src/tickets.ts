import { z } from "zod";
import { optionalInt, optionalText, PageQuery } from "./common";
import { Id } from "./nodes";
import type { AdminOrderRow } from "./orders";
import type { PlanLimitsInfo } from "./subscriptions";
import type { AdminTunnelRow } from "./tunnels";

/** Ticket categories; "appeal" is a locked tunnel's owner asking for it to be unlocked. */
export const TicketCategories = ["tunnel", "billing", "account", "other", "appeal"] as const;
export type TicketCategory = (typeof TicketCategories)[number];
export const TicketCategoryLabel: Record<TicketCategory, string> = {
  tunnel: "隧道问题",
  billing: "账单与支付",
  account: "账户问题",
  other: "其他",
  appeal: "封禁申诉",
};

/** At most this many images per message; each at most this size. */
export const TICKET_MAX_ATTACHMENTS = 3;
export const TICKET_ATTACHMENT_MAX_BYTES = 5 * 1024 * 1024;
/** Images one customer may upload in any hour (a flood of uploads is refused, issue 30 §6). */
export const TICKET_UPLOADS_PER_HOUR = 20;
/** All of one customer's images together, attached to a message or not. */
export const TICKET_STORAGE_QUOTA_BYTES = 100 * 1024 * 1024;

const content = z.string().trim().min(1, "请输入内容").max(5000, "内容最多 5000 字");
const attachments = z
  .array(Id)
  .max(TICKET_MAX_ATTACHMENTS, `最多 ${TICKET_MAX_ATTACHMENTS} 张图片`)
  .refine((a) => new Set(a).size === a.length, "图片重复")
  .default([]);

/** POST /user/ticket: appeals name the locked tunnel. */
export const CreateTicketBody = z
  .object({
    title: z.string().trim().min(1, "请输入标题").max(100, "标题最多 100 字"),
    category: z.enum(TicketCategories, { error: "请选择分类" }),
    content,
    attachments,
    tun_id: Id.optional(),
  })
  .superRefine((b, ctx) => {
    if (b.category === "appeal" && !b.tun_id)
      ctx.addIssue({ code: "custom", path: ["tun_id"], message: "申诉请选择被锁定的隧道" });
    if (b.category !== "appeal" && b.tun_id)
      ctx.addIssue({ code: "custom", path: ["tun_id"], message: "只有申诉工单关联隧道" });
  });
export type CreateTicketBody = z.input<typeof CreateTicketBody>;

/** POST /user/ticket/:ticket_id/reply */
export const TicketReplyBody = z.object({ content, attachments });
export type TicketReplyBody = z.input<typeof TicketReplyBody>;

/** POST /super/ticket/:ticket_id/reply: the status the ticket is left in (3 asks the customer for more, 1 ends it). */
export const AdminTicketReplyBody = TicketReplyBody.extend({
  status: z.union([z.literal(1), z.literal(2), z.literal(3)], { error: "状态只能是 1、2 或 3" }).default(3),
});
export type AdminTicketReplyBody = z.input<typeof AdminTicketReplyBody>;

/** POST /super/ticket/:ticket_id/close and …/unlock: an optional closing note. */
export const AdminTicketNoteBody = z.object({ content: z.string().trim().max(5000, "内容最多 5000 字").default("") });
export type AdminTicketNoteBody = z.input<typeof AdminTicketNoteBody>;

export const TicketParams = z.object({ ticket_id: z.coerce.number().int().min(1) });
export const TicketAttachmentParams = z.object({ id: z.coerce.number().int().min(1) });

const statusFilter = optionalInt(1, 3);
const categoryFilter = z.preprocess((v) => (v === "" ? undefined : v), z.enum(TicketCategories).optional());

/** GET /user/ticket */
export const TicketListQuery = PageQuery.extend({ status: statusFilter });
export type TicketListQuery = z.infer<typeof TicketListQuery>;

/** GET /super/ticket: the queue, oldest waiting first. */
export const AdminTicketListQuery = PageQuery.extend({
  status: statusFilter,
  category: categoryFilter,
  uid: optionalInt(1),
  phone: optionalText(20),
  /** only tickets whose last message is at least this many hours old */
  min_age_hours: optionalInt(0, 24 * 365),
});
export type AdminTicketListQuery = z.infer<typeof AdminTicketListQuery>;

export interface TicketAttachmentView {
  id: number;
  mime: string;
  size: number;
}

export interface TicketMessageView {
  id: number;
  /** true: written by staff */
  staff: boolean;
  content: string;
  attachments: TicketAttachmentView[];
  created_at: string;
}

export interface TicketRow {
  ticket_id: number;
  title: string;
  category: TicketCategory;
  /** 1 ended, 2 awaiting (admin) reply, 3 awaiting the customer */
  status: number;
  tun_id: number | null;
  /** staff replies the customer has not read yet */
  unread: number;
  /** the last message's first characters */
  last_reply: string;
  last_reply_staff: boolean;
  last_reply_at: string;
  created_at: string;
}

export interface TicketDetail extends TicketRow {
  messages: TicketMessageView[];
}

export interface AdminTicketRow extends TicketRow {
  uid: number;
  phone: string;
}

/** The customer beside the thread: plan, tunnels, recent orders. */
export interface TicketCustomerContext {
  uid: number;
  phone: string;
  nickname: string;
  /** 1 active, −1 banned */
  status: number;
  plan: PlanLimitsInfo | null;
  tunnels: AdminTunnelRow[];
  tunnel_total: number;
  orders: AdminOrderRow[];
}

export interface AdminTicketDetail extends AdminTicketRow {
  messages: TicketMessageView[];
  customer: TicketCustomerContext;
  /** the appealed tunnel, when the ticket is an appeal */
  tunnel: AdminTunnelRow | null;
}

/**
 * A banned account's appeal (category "appeal" without a tunnel): one open at a time, and a new one
 * only this many hours after the last one ended (a refused appeal is not retried in a loop).
 */
export const BAN_APPEAL_RETRY_HOURS = 24;

/** POST /user/appeal: the appeal's first message (its title is fixed). */
export const BanAppealBody = z.object({ content, attachments });
export type BanAppealBody = z.input<typeof BanAppealBody>;

/** GET /user/appeal: the ban, and the account's appeal (the open one, else the latest). */
export interface BanAppealView {
  ban_reason: string | null;
  ticket: TicketDetail | null;
  /** whether a new appeal may be opened now */
  can_open: boolean;
  /** when `can_open` is false because the last appeal ended recently: from when a new one may be opened */
  next_open_at: string | null;
}
