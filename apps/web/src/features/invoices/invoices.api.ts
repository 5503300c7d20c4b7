import type { AdminInvoiceActionBody, AdminInvoiceListQuery, CreateInvoiceBody } from "@burrow/contract";
import { InvoicesApi } from "@burrow/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";
import { saveBlob } from "@/lib/download";
import { pagedListQuery } from "@/lib/table-query";

export type AdminInvoiceFilters = Partial<Omit<AdminInvoiceListQuery, "page" | "size">> & {
  page: number;
  size: number;
};

export const invoicesKeys = {
  all: ["invoices"] as const,
  mine: (page: number, size: number, status?: number) => [...invoicesKeys.all, "mine", page, size, status] as const,
  orders: () => [...invoicesKeys.all, "orders"] as const,
  admin: () => [...invoicesKeys.all, "admin"] as const,
  adminList: (f: AdminInvoiceFilters) => [...invoicesKeys.admin(), "list", f] as const,
};

/** GET /user/invoice (clears the "changed" marks on the server; the answer still carries them) */
export const myInvoicesQuery = (page: number, size: number, status?: number) =>
  pagedListQuery(invoicesKeys.mine(page, size, status), InvoicesApi.getUserInvoice, { page, size, status });

/** GET /user/invoice/orders */
export const invoiceableOrdersQuery = () =>
  queryOptions({
    queryKey: invoicesKeys.orders(),
    queryFn: ({ signal }) => api.call(InvoicesApi.getUserInvoiceOrders, {}, { signal }),
  });

/** GET /super/invoiceList */
export const adminInvoicesQuery = (filters: AdminInvoiceFilters) =>
  pagedListQuery(invoicesKeys.adminList(filters), InvoicesApi.getSuperInvoiceList, filters);

export const requestInvoice = (body: CreateInvoiceBody) => api.call(InvoicesApi.postUserInvoice, { body });
export const actOnInvoice = (body: AdminInvoiceActionBody) => api.call(InvoicesApi.patchSuperInvoice, { body });

/** POST /super/invoice/file?invoice_id (multipart "file") */
export const uploadInvoicePdf = (invoiceId: number, file: Blob, onProgress?: (percent: number) => void) => {
  const form = new FormData();
  form.append("file", file);
  return api.upload(InvoicesApi.postSuperInvoiceFile, form, {
    params: { invoice_id: invoiceId },
    onUploadProgress: onProgress,
  });
};

/** Saves an invoice's PDF: the customer's own issued one, or (staff) any uploaded one. */
export async function downloadInvoicePdf(invoiceId: number, staff = false): Promise<void> {
  const file = staff
    ? await api.download(InvoicesApi.getSuperInvoiceFile, { query: { invoice_id: invoiceId } })
    : await api.download(InvoicesApi.getUserInvoiceFile, { params: { invoice_id: invoiceId } });
  saveBlob(file.blob, file.filename ?? `invoice-${invoiceId}.pdf`);
}
