import { InvoiceStatus } from "@burrow/contract";
import type { ModuleManifest } from "../../shared/module";
import { invoicesRoutes } from "./invoices.routes";
import { invoiceOrderHook } from "./invoices.service";

/** Invoices customers request for paid orders (kept in step with refunds), which operators issue. */
export const invoicesModule: ModuleManifest = {
  name: "invoices",
  routes: invoicesRoutes,
  orderHooks: [invoiceOrderHook],
  waiting: [
    {
      key: "invoices",
      label: "待开具发票",
      path: "/invoice/list?status=2",
      count: (db) =>
        db
          .selectFrom("invoices")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("status", "=", InvoiceStatus.Awaiting),
    },
  ],
};
