import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { INVOICE_FILE_MAX_BYTES } from "@burrow/contract";
import type { AppContext } from "../../context";
import type { FileDownload } from "../../shared/download";
import { invalid, notFound } from "../../shared/errors";
import { TOO_LARGE, type UploadReader } from "../../shared/upload";

const dirOf = (ctx: AppContext) => path.resolve(ctx.config.DATA_DIR, "uploads", "invoices");
const MAX_MB = INVOICE_FILE_MAX_BYTES / 1024 / 1024;
/** Stored names are ours alone: "<invoice>-<random hex>.pdf". */
const SAFE_NAME = /^\d+-[0-9a-f]{24}\.pdf$/;

/**
 * Whether bytes are a PDF document: the "%PDF-1.x" (or 2.x) header at the start, and the "%%EOF"
 * marker near the end (a truncated upload or an HTML page renamed .pdf fails).
 */
export function isPdf(buf: Buffer): boolean {
  if (buf.length < 32) return false;
  if (!/^%PDF-[12]\.\d/.test(buf.subarray(0, 8).toString("latin1"))) return false;
  return buf.subarray(Math.max(0, buf.length - 1024)).includes("%%EOF", 0, "latin1");
}

/**
 * Reads the uploaded "file" (size-capped while streaming), checks that its bytes are a PDF and
 * stores it under DATA_DIR/uploads/invoices. The client's file name and content type are ignored.
 */
export async function saveInvoiceFile(
  ctx: AppContext,
  upload: UploadReader,
  invoiceId: number,
): Promise<{ name: string; size: number }> {
  if (!upload.isMultipart) throw invalid("file", "请上传 PDF 文件");
  const buf = await upload.file({ fileSize: INVOICE_FILE_MAX_BYTES, files: 1 });
  if (!buf) throw invalid("file", "请上传 PDF 文件");
  if (buf === TOO_LARGE) throw invalid("file", `文件不能超过 ${MAX_MB} MB`);
  if (!isPdf(buf)) throw invalid("file", "文件不是有效的 PDF");
  const name = `${invoiceId}-${randomBytes(12).toString("hex")}.pdf`;
  await fs.mkdir(dirOf(ctx), { recursive: true });
  await fs.writeFile(path.join(dirOf(ctx), name), buf);
  return { name, size: buf.length };
}

/** Deletes a stored file (a replaced upload, or one whose invoice refused it). */
export async function removeInvoiceFile(ctx: AppContext, name: string): Promise<void> {
  if (!SAFE_NAME.test(name)) return;
  await fs.rm(path.join(dirOf(ctx), name), { force: true });
}

/** A stored PDF, as a download named after the invoice. */
export async function invoiceFile(ctx: AppContext, invoiceId: number, name: string): Promise<FileDownload> {
  const data = SAFE_NAME.test(name) ? await fs.readFile(path.join(dirOf(ctx), name)).catch(() => null) : null;
  if (!data) throw notFound("发票文件");
  return { body: data, name: `invoice-${invoiceId}.pdf`, type: "application/pdf" };
}
