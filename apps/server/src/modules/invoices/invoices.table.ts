import type { Generated, Selectable } from "kysely";

/** An invoice request and, once issued, the invoice (number and/or PDF). Money in fen. */
export interface InvoiceTable {
  id: Generated<number>;
  uid: number;
  /** InvoiceStatus (SPEC §4): −1 cancelled, 1 issued, 2 awaiting issue, 3 returned */
  status: number;
  /** "personal" or "company" */
  title_type: string;
  title: string;
  /** the company's unified social credit code; null for a personal title */
  tax_no: string | null;
  email: string;
  /** the sum of its orders' invoiced amounts, fixed when requested */
  amount: number;
  invoice_no: string | null;
  /** file name under DATA_DIR/uploads/invoices */
  file: string | null;
  file_size: number | null;
  /** why it was returned or cancelled */
  reason: string;
  /** 1: the status changed since the customer last listed their invoices */
  user_unread: number;
  /** 1: one of its orders was refunded while it was live */
  flagged: number;
  flag_note: string;
  created_at: string;
  handled_at: string | null;
  handled_by: number | null;
}
export type InvoiceRowDb = Selectable<InvoiceTable>;

/**
 * One order on one invoice. `live_trade_id` is the trade id while the invoice is live (2 or 1)
 * and null after it was returned or cancelled: its unique index is what keeps an order on at most
 * one live invoice, whatever runs at the same time.
 */
export interface InvoiceOrderTable {
  id: Generated<number>;
  invoice_id: number;
  uid: number;
  trade_id: string;
  name: string;
  type: number;
  /** what this invoice counts for the order (paid online minus refunded, at request time) */
  amount: number;
  live_trade_id: string | null;
}
export type InvoiceOrderRowDb = Selectable<InvoiceOrderTable>;

export interface InvoiceTables {
  invoices: InvoiceTable;
  invoice_orders: InvoiceOrderTable;
}
