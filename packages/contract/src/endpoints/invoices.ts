import { z } from "zod";
import { pagedAnswer } from "../answers";
import {
  AdminInvoiceRowAnswer,
  InvoiceableOrderAnswer,
  InvoiceListAnswer,
  InvoiceRowAnswer,
} from "../answers/invoices";
import type { Paged } from "../codes";
import { endpoint } from "../endpoint";
import {
  AdminInvoiceActionBody,
  AdminInvoiceListQuery,
  type AdminInvoiceRow,
  CreateInvoiceBody,
  type InvoiceableOrder,
  InvoiceFileQuery,
  type InvoiceList,
  InvoiceListQuery,
  InvoiceParams,
  type InvoiceRow,
} from "../invoices";

/** Invoices: customers under /user/invoice, operators on SPEC's /super/invoiceList and /super/invoice. */
export const InvoicesApi = {
  getUserInvoice: endpoint<InvoiceList>()({
    method: "GET",
    url: "/user/invoice",
    access: "user",
    answer: InvoiceListAnswer,
    summary: "my invoice requests, newest first; clears the 'status changed' marks",
    query: InvoiceListQuery,
  }),
  getUserInvoiceOrders: endpoint<InvoiceableOrder[]>()({
    method: "GET",
    url: "/user/invoice/orders",
    access: "user",
    answer: z.array(InvoiceableOrderAnswer),
    summary: "my orders that may be invoiced now: paid online, minus refunds, not on a live invoice",
  }),
  postUserInvoice: endpoint<InvoiceRow>()({
    method: "POST",
    url: "/user/invoice",
    access: "user",
    answer: InvoiceRowAnswer,
    summary: "requests an invoice (status 2) over some of my invoiceable orders",
    body: CreateInvoiceBody,
  }),
  getUserInvoiceFile: endpoint<null>()({
    method: "GET",
    url: "/user/invoice/:invoice_id/file",
    access: "user",
    summary: "the issued PDF of one of my invoices (anyone else: 404)",
    params: InvoiceParams,
    raw: "file",
  }),
  getSuperInvoiceList: endpoint<Paged<AdminInvoiceRow>>()({
    method: "GET",
    url: "/super/invoiceList",
    access: "manager",
    answer: pagedAnswer(AdminInvoiceRowAnswer),
    summary: "the invoice queue: awaiting first, oldest first; filters status, user, trade id, refund flag",
    query: AdminInvoiceListQuery,
  }),
  patchSuperInvoice: endpoint<AdminInvoiceRow>()({
    method: "PATCH",
    url: "/super/invoice",
    access: "manager",
    answer: AdminInvoiceRowAnswer,
    summary: "issue (→ 1, number and/or uploaded PDF), return with a reason (→ 3) or cancel (→ −1) an invoice; audited",
    body: AdminInvoiceActionBody,
  }),
  postSuperInvoiceFile: endpoint<AdminInvoiceRow>()({
    method: "POST",
    url: "/super/invoice/file",
    access: "manager",
    answer: AdminInvoiceRowAnswer,
    summary: 'uploads the PDF (multipart "file", at most 10 MB) of an awaiting invoice, replacing an earlier one',
    query: InvoiceFileQuery,
    raw: "multipart",
  }),
  getSuperInvoiceFile: endpoint<null>()({
    method: "GET",
    url: "/super/invoice/file",
    access: "manager",
    summary: "an invoice's uploaded PDF",
    query: InvoiceFileQuery,
    raw: "file",
  }),
} as const;
