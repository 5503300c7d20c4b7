import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import type { Tx } from "../../shared/tx";

/* The invoices module's part of a customer's data export and of an account's erasure (docs/leaving.md). */

/** The customer's invoice requests with the orders each covers, for the export. */
export async function invoicesDataOf(db: Kysely<DB>, uid: number) {
  const [invoices, lines] = await Promise.all([
    db
      .selectFrom("invoices")
      .select([
        "id",
        "status",
        "title_type",
        "title",
        "tax_no",
        "email",
        "amount",
        "invoice_no",
        "reason",
        "created_at",
        "handled_at",
      ])
      .where("uid", "=", uid)
      .orderBy("id")
      .execute(),
    db
      .selectFrom("invoice_orders")
      .select(["invoice_id", "trade_id", "name", "amount"])
      .where("uid", "=", uid)
      .execute(),
  ]);
  return invoices.map((i) => ({ ...i, orders: lines.filter((l) => l.invoice_id === i.id) }));
}

/**
 * Keeps the account's invoices as accounting records (amounts, dates, trade ids, the issued
 * number and PDF: the voucher itself) and erases what names a person: the e-mail address always,
 * the title of a personal invoice (a company's title and tax number are not personal data).
 */
export async function pseudonymiseInvoicesOf(trx: Tx, uid: number): Promise<void> {
  await trx.updateTable("invoices").set({ email: "" }).where("uid", "=", uid).execute();
  await trx
    .updateTable("invoices")
    .set({ title: `已注销用户${uid}` })
    .where("uid", "=", uid)
    .where("title_type", "=", "personal")
    .execute();
}
