import type { Generated, Selectable } from "kysely";

/** A support ticket or a tunnel appeal (category "appeal", tun_id set). */
export interface TicketTable {
  id: Generated<number>;
  uid: number;
  title: string;
  category: string;
  /** 1 ended, 2 awaiting staff, 3 awaiting the customer (SPEC §4) */
  status: number;
  tun_id: number | null;
  /** staff messages the customer has not read yet */
  user_unread: number;
  last_reply: string;
  last_reply_staff: number;
  last_reply_at: string;
  created_at: string;
  closed_at: string | null;
}
export type TicketRowDb = Selectable<TicketTable>;

export interface TicketMessageTable {
  id: Generated<number>;
  ticket_id: number;
  /** the author (the customer or a staff member) */
  uid: number;
  staff: number;
  content: string;
  created_at: string;
}

/** An uploaded image: the uploader's until it is attached to a message, then the ticket's. */
export interface TicketAttachmentTable {
  id: Generated<number>;
  uid: number;
  ticket_id: number | null;
  message_id: number | null;
  /** file name under DATA_DIR/uploads/tickets */
  file: string;
  mime: string;
  size: number;
  created_at: string;
}

export interface TicketTables {
  tickets: TicketTable;
  ticket_messages: TicketMessageTable;
  ticket_attachments: TicketAttachmentTable;
}
