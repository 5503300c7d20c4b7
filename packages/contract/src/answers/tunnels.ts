import { z } from "zod";
import { int, TunnelViewAnswer, time } from "../answers";
import { IllegalRuleKinds, IllegalSources, TunnelEventFixes, TunnelEventKinds } from "../tunnels";

/* Answers of the tunnels endpoints beyond the ones in answers.ts (which API tokens reach). */

export const TunnelEventRowAnswer = z.strictObject({
  id: int(),
  kind: z.enum(TunnelEventKinds),
  reason: z.string(),
  fix: z.enum(TunnelEventFixes).nullable().describe("the fix offered, null when none"),
  count: int().describe("identical events within the minute"),
  first_at: time(),
  last_at: time(),
});

export const AdminTunnelRowAnswer = TunnelViewAnswer.extend({
  phone: z.string(),
  nickname: z.string(),
  cur_conns: int(),
});

export const IllegalFlagRowAnswer = z.strictObject({
  id: int(),
  tun_id: int(),
  uid: int(),
  node_id: int(),
  source: z.enum(IllegalSources),
  rule_id: int().nullable(),
  reason: z.string(),
  reporter: z.string().describe("reporter's contact (reports only)"),
  status: int().describe("1 pending, 2 banned, 3 cleared"),
  created_at: time(),
  handled_at: time().nullable(),
  handled_by: int().nullable(),
  tun_name: z.string(),
  tun_status: int(),
  protocol: z.string(),
  addresses: z.array(z.string()),
  phone: z.string(),
  node_name: z.string(),
});

export const IllegalRuleRowAnswer = z.strictObject({
  id: int(),
  kind: z.enum(IllegalRuleKinds),
  value: z.string().describe('keyword, or port "22" / range "6000-6100"'),
  note: z.string(),
  hits: int().describe("flags this rule raised"),
  created_at: time(),
});
