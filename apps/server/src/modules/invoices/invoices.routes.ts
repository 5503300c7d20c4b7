import { InvoicesApi } from "@burrow/contract";
import multipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { sendDownload } from "../../http/download";
import { defineRoute } from "../../http/route";
import { uploadOf } from "../../http/upload";
import { notFound } from "../../shared/errors";
import { invoiceFile, removeInvoiceFile, saveInvoiceFile } from "./invoice-files";
import {
  actOnInvoice,
  attachFile,
  findInvoice,
  listInvoiceableOrders,
  listInvoices,
  listMyInvoices,
  ownIssuedFile,
  requestInvoice,
} from "./invoices.service";

/** Invoices: customers under /user/invoice, operators on /super/invoiceList and /super/invoice. */
export function invoicesRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, InvoicesApi.getUserInvoice, ({ user, query }) => listMyInvoices(ctx, user.uid, query));
  defineRoute(app, ctx, InvoicesApi.getUserInvoiceOrders, ({ user }) => listInvoiceableOrders(ctx, user.uid));
  defineRoute(app, ctx, InvoicesApi.postUserInvoice, ({ user, body }) => requestInvoice(ctx, user.uid, body));
  defineRoute(app, ctx, InvoicesApi.getUserInvoiceFile, async ({ user, params, reply }) => {
    const inv = await ownIssuedFile(ctx, user.uid, params.invoice_id);
    return sendDownload(reply, await invoiceFile(ctx, inv.id, inv.file as string));
  });
  defineRoute(app, ctx, InvoicesApi.getSuperInvoiceList, ({ query }) => listInvoices(ctx, query));
  defineRoute(app, ctx, InvoicesApi.patchSuperInvoice, ({ operator, body }) => actOnInvoice(ctx, operator, body));
  defineRoute(app, ctx, InvoicesApi.getSuperInvoiceFile, async ({ query, reply }) => {
    const inv = await findInvoice(ctx.db, query.invoice_id);
    if (!inv?.file) throw notFound("发票文件");
    return sendDownload(reply, await invoiceFile(ctx, inv.id, inv.file));
  });
  // Multipart only in this scope (see users.routes.ts).
  void app.register(async (scope) => {
    await scope.register(multipart);
    defineRoute(scope, ctx, InvoicesApi.postSuperInvoiceFile, async ({ operator, query, req }) => {
      if (!(await findInvoice(ctx.db, query.invoice_id))) throw notFound("发票");
      const file = await saveInvoiceFile(ctx, uploadOf(req), query.invoice_id);
      try {
        return await attachFile(ctx, operator, query.invoice_id, file);
      } catch (err) {
        await removeInvoiceFile(ctx, file.name);
        throw err;
      }
    });
  });
}
