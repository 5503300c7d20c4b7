import { z } from "zod";
import { int, time } from "../answers";
import { InvoiceTitleTypes } from "../invoices";

/** Answers of the invoice endpoints (issue 34 §2; see answers.ts), money in fen. */

const orderType = () => int().describe("1 recharge, 2 plan, 3 traffic pack, 4 renewal");

export const InvoiceableOrderAnswer = z.strictObject({
  trade_id: z.string(),
  name: z.string(),
  type: orderType(),
  amount: int().describe("fen paid online"),
  refunded: int().describe("fen refunds gave back"),
  invoiceable: int().describe("fen, amount − refunded"),
  paid_at: time(),
});

export const InvoiceRowAnswer = z.strictObject({
  invoice_id: int(),
  status: int().describe("−1 cancelled, 1 issued, 2 awaiting issue, 3 returned"),
  title_type: z.enum(InvoiceTitleTypes),
  title: z.string(),
  tax_no: z.string().nullable(),
  email: z.string(),
  amount: int().describe("fen"),
  orders: z.array(
    z.strictObject({ trade_id: z.string(), name: z.string(), type: orderType(), amount: int().describe("fen") }),
  ),
  invoice_no: z.string().nullable(),
  has_file: z.boolean().describe("an issued PDF is there to download"),
  reason: z.string().describe("why it was returned or cancelled"),
  unread: z.boolean().describe("the status changed since the customer last looked"),
  created_at: time(),
  handled_at: time().nullable(),
});

export const InvoiceListAnswer = z.strictObject({
  list: z.array(InvoiceRowAnswer),
  total: int(),
  page: int(),
  size: int(),
  unread: int().describe("rows whose status changed since the last listing (cleared by it)"),
});

export const AdminInvoiceRowAnswer = InvoiceRowAnswer.extend({
  uid: int(),
  phone: z.string(),
  file_size: int().nullable().describe("bytes of the uploaded PDF"),
  flagged: z.boolean().describe("one of its orders was refunded after the request"),
  flag_note: z.string(),
});
