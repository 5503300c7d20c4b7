/** What customers and staff see of a ticket row. */
import type { TicketCategory, TicketRow } from "@burrow/contract";
import type { TicketRowDb } from "./tickets.table";

/** A message on one line, cut to 80 characters: the list's last reply. */
export const preview = (s: string) => s.replace(/\s+/g, " ").trim().slice(0, 80);

/** A ticket in a list (staff's rows add the customer). */
export function presentRow(r: TicketRowDb): TicketRow {
  return {
    ticket_id: r.id,
    title: r.title,
    category: r.category as TicketCategory,
    status: r.status,
    tun_id: r.tun_id,
    unread: Number(r.user_unread),
    last_reply: r.last_reply,
    last_reply_staff: r.last_reply_staff === 1,
    last_reply_at: r.last_reply_at,
    created_at: r.created_at,
  };
}
