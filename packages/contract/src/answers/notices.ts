import { z } from "zod";
import { int, time } from "../answers";
import { NoticeChannels, type NoticeEventType, NoticeEventTypes } from "../notices";

/* Answers of the notification centre and the notice settings (issue 34 §2). */

export const NoticeViewAnswer = z.strictObject({
  id: int(),
  type: z.string().describe("the event type (tunnel.offline, …)"),
  label: z.string().describe("the event's Chinese name, or the type when unknown"),
  title: z.string(),
  body: z.string(),
  link: z.string().nullable().describe("a console path to open"),
  read: z.boolean(),
  created_at: time(),
});

export const NoticeCountAnswer = z.strictObject({ count: int() });

const Channels = z.array(z.enum(NoticeChannels));

export const NoticeSettingsAnswer = z.strictObject({
  events: z.array(
    z.strictObject({
      type: z.enum(NoticeEventTypes as [NoticeEventType, ...NoticeEventType[]]),
      label: z.string(),
      urgent: z.boolean(),
      allowed: Channels.describe("the channels this event may use (SMS only for urgent ones)"),
      channels: Channels.describe('the channels on now ("site" always)'),
    }),
  ),
  email: z.strictObject({
    address: z.string().nullable(),
    verified: z.boolean(),
    available: z.boolean().describe("false: the server has no SMTP configured"),
    reason: z.string().nullable().describe("why the e-mail channel is off"),
  }),
  sms: z.strictObject({ available: z.boolean(), reason: z.string().nullable() }),
});
