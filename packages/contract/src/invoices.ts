import { z } from "zod";
import { optionalInt, optionalText, PageQuery } from "./common";
import { TradeId } from "./orders";

/**
 * Invoices (发票): a customer asks for one over online-paid orders; an operator issues it (PDF
 * and/or invoice number), returns it with a reason or cancels it. Statuses are SPEC §4
 * (InvoiceStatus in enums.ts: −1 cancelled, 1 issued, 2 awaiting issue, 3 returned). Money in fen.
 */

/** Orders one request may cover. */
export const INVOICE_MAX_ORDERS = 50;
/** The issued PDF's size cap. */
export const INVOICE_FILE_MAX_BYTES = 10 * 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// Unified social credit code (统一社会信用代码, GB 32100-2015)

/** The 31 characters a unified social credit code may use (no I, O, S, V, Z). */
export const USCC_CHARSET = "0123456789ABCDEFGHJKLMNPQRTUWXY";
const USCC_WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];

/**
 * The GB 32100 check character of a code's first 17 characters: 31 − (Σ value × weight mod 31),
 * 31 read as 0, written with the code's charset. Null when a character is outside the charset.
 */
export function usccCheckChar(first17: string): string | null {
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const v = USCC_CHARSET.indexOf(first17[i] ?? "");
    if (v < 0) return null;
    sum += v * USCC_WEIGHTS[i];
  }
  return USCC_CHARSET[(31 - (sum % 31)) % 31];
}

/**
 * What is wrong with a unified social credit code (a company's tax number), in words a customer
 * understands, or null when it is well formed: 18 characters of the GB 32100 charset, a
 * registration authority (position 1) and organisation kind (2) from the charset, a six-digit
 * administrative division code (3–8), and the check character (18).
 */
export function usccProblem(raw: string): string | null {
  const code = raw.trim().toUpperCase();
  if (code.length !== 18) return `纳税人识别号应为 18 位统一社会信用代码，当前为 ${code.length} 位`;
  const bad = [...code].find((c) => !USCC_CHARSET.includes(c));
  if (bad !== undefined) return `统一社会信用代码不能包含字符 ${bad}（不使用 I、O、S、V、Z）`;
  if (!/^\d{6}$/.test(code.slice(2, 8))) return "统一社会信用代码第 3–8 位应为行政区划代码（6 位数字）";
  if (usccCheckChar(code) !== code[17]) return "统一社会信用代码校验位不正确，请检查是否输错";
  return null;
}

// ---------------------------------------------------------------------------------------------
// Requests

export const InvoiceTitleTypes = ["personal", "company"] as const;
export type InvoiceTitleType = (typeof InvoiceTitleTypes)[number];
export const InvoiceTitleTypeLabel: Record<InvoiceTitleType, string> = { personal: "个人", company: "企业" };

/** POST /user/invoice */
export const CreateInvoiceBody = z
  .object({
    trade_ids: z
      .array(TradeId, { error: "请选择订单" })
      .min(1, "请至少选择一笔订单")
      .max(INVOICE_MAX_ORDERS, `一张发票最多 ${INVOICE_MAX_ORDERS} 笔订单`)
      .refine((a) => new Set(a).size === a.length, "订单重复"),
    title_type: z.enum(InvoiceTitleTypes, { error: "抬头类型只能是 personal 或 company" }),
    title: z.string().trim().min(2, "请输入发票抬头").max(100, "发票抬头最多 100 字"),
    /** companies only: the unified social credit code, upper-cased */
    tax_no: z.preprocess(
      (v) => (typeof v === "string" ? (v.trim() === "" ? undefined : v.trim().toUpperCase()) : v),
      z.string().max(18, "纳税人识别号应为 18 位统一社会信用代码").optional(),
    ),
    email: z
      .string({ error: "请输入接收邮箱" })
      .trim()
      .max(100, "邮箱最多 100 个字符")
      .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "邮箱格式不正确"),
  })
  .superRefine((b, ctx) => {
    if (b.title_type === "company") {
      const problem = b.tax_no === undefined ? "企业抬头请填写纳税人识别号" : usccProblem(b.tax_no);
      if (problem) ctx.addIssue({ code: "custom", path: ["tax_no"], message: problem });
    } else if (b.tax_no !== undefined) {
      ctx.addIssue({ code: "custom", path: ["tax_no"], message: "个人抬头不填写纳税人识别号" });
    }
  });
export type CreateInvoiceBody = z.input<typeof CreateInvoiceBody>;

export const InvoiceParams = z.object({ invoice_id: z.coerce.number().int().min(1) });

const statusFilter = z.preprocess(
  (v) => (v === "" || v === null ? undefined : v),
  z.coerce
    .number()
    .int()
    .refine((n) => [-1, 1, 2, 3].includes(n), "状态只能是 -1、1、2、3")
    .optional(),
);

/** GET /user/invoice */
export const InvoiceListQuery = PageQuery.extend({ status: statusFilter });
export type InvoiceListQuery = z.infer<typeof InvoiceListQuery>;

/** GET /super/invoiceList: the queue, awaiting first, oldest first. */
export const AdminInvoiceListQuery = PageQuery.extend({
  status: statusFilter,
  invoice_id: optionalInt(1),
  uid: optionalInt(1),
  phone: optionalText(20),
  /** a trade id on the invoice */
  trade_id: optionalText(40),
  /** 1: only invoices flagged by a refund of one of their orders */
  flagged: optionalInt(0, 1),
});
export type AdminInvoiceListQuery = z.infer<typeof AdminInvoiceListQuery>;

export const InvoiceActions = ["issue", "return", "cancel"] as const;
export type InvoiceAction = (typeof InvoiceActions)[number];

/**
 * PATCH /super/invoice: issue (awaiting → 1, with the invoice number and/or the PDF uploaded
 * before through /super/invoice/file), return with a reason (awaiting → 3, the orders become
 * invoiceable again) or cancel (awaiting or issued → −1, likewise; the reason is optional).
 */
export const AdminInvoiceActionBody = z
  .object({
    invoice_id: z.number({ error: "请指定发票" }).int().min(1, "请指定发票"),
    action: z.enum(InvoiceActions, { error: "操作只能是 issue、return 或 cancel" }),
    invoice_no: z.preprocess(
      (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
      z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9-]{6,40}$/, "发票号码应为 6–40 位字母或数字")
        .optional(),
    ),
    reason: z.string().trim().max(500, "原因最多 500 字").default(""),
  })
  .superRefine((b, ctx) => {
    if (b.action === "return" && !b.reason)
      ctx.addIssue({ code: "custom", path: ["reason"], message: "请填写退回原因" });
  });
export type AdminInvoiceActionBody = z.input<typeof AdminInvoiceActionBody>;

/** POST /super/invoice/file?invoice_id: the multipart "file" (a PDF) of an awaiting invoice. */
export const InvoiceFileQuery = z.object({ invoice_id: z.coerce.number().int().min(1) });

// ---------------------------------------------------------------------------------------------
// Answers

/** An order the customer may put on an invoice now. */
export interface InvoiceableOrder {
  trade_id: string;
  name: string;
  /** OrderType */
  type: number;
  /** what was paid online */
  amount: number;
  /** what refunds gave back */
  refunded: number;
  /** amount − refunded: what the invoice will count for it */
  invoiceable: number;
  paid_at: string;
}

export interface InvoiceOrderLine {
  trade_id: string;
  name: string;
  type: number;
  /** what the invoice counts for this order */
  amount: number;
}

export interface InvoiceRow {
  invoice_id: number;
  /** −1 cancelled, 1 issued, 2 awaiting issue, 3 returned */
  status: number;
  title_type: InvoiceTitleType;
  title: string;
  tax_no: string | null;
  email: string;
  /** fen */
  amount: number;
  orders: InvoiceOrderLine[];
  invoice_no: string | null;
  /** an issued PDF is there to download */
  has_file: boolean;
  /** why it was returned or cancelled */
  reason: string;
  /** the status changed since the customer last looked */
  unread: boolean;
  created_at: string;
  handled_at: string | null;
}

export interface AdminInvoiceRow extends InvoiceRow {
  uid: number;
  phone: string;
  /** a PDF uploaded (issued, or waiting for the issue action) */
  file_size: number | null;
  /** one of its orders was refunded after the request: the operator should look */
  flagged: boolean;
  flag_note: string;
}

/** GET /user/invoice */
export interface InvoiceList {
  list: InvoiceRow[];
  total: number;
  page: number;
  size: number;
  /** rows whose status changed since the customer last listed them (cleared by this call) */
  unread: number;
}
