import { z } from "zod";
import { int, TunnelViewAnswer, time } from "../answers";
import { TicketCategories } from "../tickets";
import { AdminOrderRowAnswer } from "./orders";
import { PlanLimitsInfoAnswer } from "./subscriptions";

/** Answers of the support-ticket and appeal endpoints (issue 34 §2; see answers.ts). */

export const TicketAttachmentAnswer = z.strictObject({ id: int(), mime: z.string(), size: int().describe("bytes") });

const TicketMessageAnswer = z.strictObject({
  id: int(),
  staff: z.boolean().describe("written by staff"),
  content: z.string(),
  attachments: z.array(TicketAttachmentAnswer),
  created_at: time(),
});

export const TicketRowAnswer = z.strictObject({
  ticket_id: int(),
  title: z.string(),
  category: z.enum(TicketCategories),
  status: int().describe("1 ended, 2 awaiting a staff reply, 3 awaiting the customer"),
  tun_id: int().nullable(),
  unread: int().describe("staff replies the customer has not read"),
  last_reply: z.string().describe("the last message's first characters"),
  last_reply_staff: z.boolean(),
  last_reply_at: time(),
  created_at: time(),
});

export const TicketDetailAnswer = TicketRowAnswer.extend({ messages: z.array(TicketMessageAnswer) });

export const AdminTicketRowAnswer = TicketRowAnswer.extend({ uid: int(), phone: z.string() });

/** A tunnel as staff list it (AdminTunnelRow): the customer's view plus its owner and live connections. */
const AdminTunnelRowAnswer = TunnelViewAnswer.extend({ phone: z.string(), nickname: z.string(), cur_conns: int() });

export const AdminTicketDetailAnswer = AdminTicketRowAnswer.extend({
  messages: z.array(TicketMessageAnswer),
  customer: z.strictObject({
    uid: int(),
    phone: z.string(),
    nickname: z.string(),
    status: int().describe("1 active, −1 banned"),
    plan: PlanLimitsInfoAnswer.nullable(),
    tunnels: z.array(AdminTunnelRowAnswer),
    tunnel_total: int(),
    orders: z.array(AdminOrderRowAnswer),
  }),
  tunnel: AdminTunnelRowAnswer.nullable().describe("the appealed tunnel"),
});

export const BanAppealViewAnswer = z.strictObject({
  ban_reason: z.string().nullable(),
  ticket: TicketDetailAnswer.nullable(),
  can_open: z.boolean().describe("whether a new appeal may be opened now"),
  next_open_at: time().nullable(),
});

export const UnreadCountAnswer = z.strictObject({ count: int() });
