import {
  type AdminInvoiceActionBody,
  type AdminInvoiceListQuery,
  type AdminInvoiceRow,
  type CreateInvoiceBody,
  fenToYuan,
  type InvoiceableOrder,
  type InvoiceList,
  type InvoiceListQuery,
  type InvoiceOrderLine,
  type InvoiceRow,
  InvoiceStatus,
  type InvoiceTitleType,
  type Paged,
  type Parsed,
} from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext, OrderHook } from "../../context";
import { isUniqueViolation } from "../../db/errors";
import type { DB } from "../../db/schema";
import type { Operator } from "../../shared/actor";
import { invalid, notFound, refused } from "../../shared/errors";
import { lockUser } from "../../shared/locks";
import { countRows, pageOf } from "../../shared/paging";
import { extend } from "../../shared/rows";
import { nowIso } from "../../shared/time";
import { audit } from "../audit/audit";
import { paidOnlineOrders } from "../orders/orders.repository";
import type { OrderRow } from "../orders/orders.table";
import { shownPhonesOf, userFilter } from "../users/users.repository";
import { removeInvoiceFile } from "./invoice-files";
import type { InvoiceOrderRowDb, InvoiceRowDb } from "./invoices.table";

/** Invoices a customer may have awaiting issue at once (each holds its orders). */
export const MAX_AWAITING_INVOICES = 20;

/**
 * What an order can be invoiced for: the money that came in from outside for it (paid online),
 * minus what a refund gave back. Orders paid from the balance count nothing: that money was
 * invoiced (or invoiceable) as the recharge, or as the online order that credited it.
 */
export const invoiceableOf = (o: Pick<OrderRow, "amount" | "refunded_amount">): number =>
  Math.max(0, Number(o.amount) - Number(o.refunded_amount));

const LIVE = [InvoiceStatus.Awaiting, InvoiceStatus.Issued];

async function linesOf(db: Kysely<DB>, ids: number[]): Promise<Map<number, InvoiceOrderRowDb[]>> {
  const out = new Map<number, InvoiceOrderRowDb[]>();
  if (!ids.length) return out;
  const rows = await db.selectFrom("invoice_orders").selectAll().where("invoice_id", "in", ids).orderBy("id").execute();
  for (const r of rows) out.set(r.invoice_id, [...(out.get(r.invoice_id) ?? []), r]);
  return out;
}

function presentRow(r: InvoiceRowDb, lines: InvoiceOrderRowDb[]): InvoiceRow {
  return {
    invoice_id: r.id,
    status: r.status,
    title_type: r.title_type as InvoiceTitleType,
    title: r.title,
    tax_no: r.tax_no,
    email: r.email,
    amount: Number(r.amount),
    orders: lines.map(
      (l): InvoiceOrderLine => ({ trade_id: l.trade_id, name: l.name, type: l.type, amount: Number(l.amount) }),
    ),
    invoice_no: r.invoice_no,
    has_file: r.status === InvoiceStatus.Issued && r.file !== null,
    reason: r.reason,
    unread: r.user_unread === 1,
    created_at: r.created_at,
    handled_at: r.handled_at,
  };
}

async function presentAdmin(db: Kysely<DB>, rows: InvoiceRowDb[]): Promise<AdminInvoiceRow[]> {
  const [lines, phones] = await Promise.all([
    linesOf(
      db,
      rows.map((r) => r.id),
    ),
    shownPhonesOf(
      db,
      rows.map((r) => r.uid),
    ),
  ]);
  return rows.map((r) =>
    extend(presentRow(r, lines.get(r.id) ?? []), {
      uid: r.uid,
      phone: phones.get(r.uid) ?? "",
      file_size: r.file_size === null ? null : Number(r.file_size),
      flagged: r.flagged === 1,
      flag_note: r.flag_note,
    }),
  );
}

export const findInvoice = (db: Kysely<DB>, id: number) =>
  db.selectFrom("invoices").selectAll().where("id", "=", id).executeTakeFirst();

/** An invoice for the operator, 404 when there is none. */
export async function adminInvoice(db: Kysely<DB>, id: number): Promise<AdminInvoiceRow> {
  const row = await findInvoice(db, id);
  if (!row) throw notFound("发票");
  return (await presentAdmin(db, [row]))[0];
}

/** The trade ids of a customer's orders that are on a live invoice. */
async function liveTradeIds(db: Kysely<DB>, uid: number): Promise<Set<string>> {
  const rows = await db
    .selectFrom("invoice_orders")
    .select("live_trade_id")
    .where("uid", "=", uid)
    .where("live_trade_id", "is not", null)
    .execute();
  return new Set(rows.map((r) => r.live_trade_id as string));
}

/** GET /user/invoice/orders: paid online, something left after refunds, on no live invoice. */
export async function listInvoiceableOrders(ctx: AppContext, uid: number): Promise<InvoiceableOrder[]> {
  const [orders, live] = await Promise.all([paidOnlineOrders(ctx.db, uid), liveTradeIds(ctx.db, uid)]);
  return orders
    .filter((o) => !live.has(o.trade_id) && invoiceableOf(o) > 0)
    .reverse()
    .map((o) => ({
      trade_id: o.trade_id,
      name: o.name,
      type: o.type,
      amount: Number(o.amount),
      refunded: Number(o.refunded_amount),
      invoiceable: invoiceableOf(o),
      paid_at: o.paid_at as string,
    }));
}

/**
 * POST /user/invoice. Under the customer's lock (the lock refunds take too) the chosen orders are
 * read again: each must be the caller's, paid online, with something left after refunds and on no
 * live invoice; the amount is their sum. The unique index on the live lines is the last word if
 * anything slips past the check.
 */
export async function requestInvoice(
  ctx: AppContext,
  uid: number,
  body: Parsed<typeof CreateInvoiceBody>,
): Promise<InvoiceRow> {
  const now = nowIso();
  let id: number;
  try {
    id = await ctx.db.transaction().execute(async (trx) => {
      await lockUser(trx, uid);
      const awaiting = await trx
        .selectFrom("invoices")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("uid", "=", uid)
        .where("status", "=", InvoiceStatus.Awaiting)
        .executeTakeFirstOrThrow();
      if (Number(awaiting.n) >= MAX_AWAITING_INVOICES)
        throw refused(`待开具的发票最多 ${MAX_AWAITING_INVOICES} 张，请等待处理后再申请`);
      const orders = await paidOnlineOrders(trx, uid, body.trade_ids);
      const byId = new Map(orders.map((o) => [o.trade_id, o]));
      const live = await liveTradeIds(trx, uid);
      for (const tradeId of body.trade_ids) {
        const o = byId.get(tradeId);
        if (!o) throw invalid("trade_ids", `订单 ${tradeId} 不存在或不可开票（仅在线支付的订单可开票）`);
        if (live.has(tradeId)) throw refused(`订单 ${tradeId} 已在其他发票中`);
        if (invoiceableOf(o) <= 0) throw invalid("trade_ids", `订单 ${tradeId} 已全额退款，不可开票`);
      }
      const amount = orders.reduce((s, o) => s + invoiceableOf(o), 0);
      const inv = await trx
        .insertInto("invoices")
        .values({
          uid,
          status: InvoiceStatus.Awaiting,
          title_type: body.title_type,
          title: body.title,
          tax_no: body.title_type === "company" ? (body.tax_no ?? null) : null,
          email: body.email,
          amount,
          invoice_no: null,
          file: null,
          file_size: null,
          reason: "",
          user_unread: 0,
          flagged: 0,
          flag_note: "",
          created_at: now,
          handled_at: null,
          handled_by: null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await trx
        .insertInto("invoice_orders")
        .values(
          orders.map((o) => ({
            invoice_id: inv.id,
            uid,
            trade_id: o.trade_id,
            name: o.name,
            type: o.type,
            amount: invoiceableOf(o),
            live_trade_id: o.trade_id,
          })),
        )
        .execute();
      return inv.id;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw refused("所选订单已在其他发票中");
    throw err;
  }
  const row = (await findInvoice(ctx.db, id))!;
  return presentRow(row, (await linesOf(ctx.db, [id])).get(id) ?? []);
}

/** GET /user/invoice: newest first; answers how many changed since last time and clears the marks. */
export async function listMyInvoices(ctx: AppContext, uid: number, q: InvoiceListQuery): Promise<InvoiceList> {
  let sel = ctx.db.selectFrom("invoices").where("uid", "=", uid);
  if (q.status !== undefined) sel = sel.where("status", "=", q.status);
  const page = await pageOf(
    q.page,
    q.size,
    async (limit, offset) => {
      const rows = await sel.selectAll().orderBy("id", "desc").limit(limit).offset(offset).execute();
      const lines = await linesOf(
        ctx.db,
        rows.map((r) => r.id),
      );
      return rows.map((r) => presentRow(r, lines.get(r.id) ?? []));
    },
    () => countRows(sel),
  );
  const cleared = await ctx.db
    .updateTable("invoices")
    .set({ user_unread: 0 })
    .where("uid", "=", uid)
    .where("user_unread", "=", 1)
    .executeTakeFirst();
  return { ...page, unread: Number(cleared.numUpdatedRows) };
}

/** An issued invoice's file, for its owner only: anyone else (or no file yet) gets the same 404. */
export async function ownIssuedFile(ctx: AppContext, uid: number, id: number): Promise<InvoiceRowDb> {
  const row = await findInvoice(ctx.db, id);
  if (!row || row.uid !== uid || row.status !== InvoiceStatus.Issued || !row.file) throw notFound("发票文件");
  return row;
}

/** GET /super/invoiceList: awaiting first (oldest first), then the rest, newest first. */
export async function listInvoices(ctx: AppContext, q: AdminInvoiceListQuery): Promise<Paged<AdminInvoiceRow>> {
  const uid = await userFilter(ctx.db, q);
  if (uid === null) return { list: [], total: 0, page: q.page, size: q.size };
  let sel = ctx.db.selectFrom("invoices");
  if (q.status !== undefined) sel = sel.where("status", "=", q.status);
  if (q.invoice_id) sel = sel.where("id", "=", q.invoice_id);
  if (uid) sel = sel.where("uid", "=", uid);
  if (q.flagged === 1) sel = sel.where("flagged", "=", 1);
  if (q.trade_id) {
    const tradeId = q.trade_id;
    sel = sel.where("id", "in", (eb) =>
      eb.selectFrom("invoice_orders").select("invoice_id").where("trade_id", "=", tradeId),
    );
  }
  return pageOf(
    q.page,
    q.size,
    async (limit, offset) => {
      const rows = await sel
        .selectAll()
        .orderBy((eb) => eb.case().when("status", "=", InvoiceStatus.Awaiting).then(0).else(1).end())
        .orderBy((eb) => eb.case().when("status", "=", InvoiceStatus.Awaiting).then(eb.ref("id")).else(0).end())
        .orderBy("id", "desc")
        .limit(limit)
        .offset(offset)
        .execute();
      return presentAdmin(ctx.db, rows);
    },
    () => countRows(sel),
  );
}

/** Frees an invoice's orders (returned or cancelled): they may go on a new request. */
const releaseOrders = (trx: Kysely<DB>, id: number) =>
  trx.updateTable("invoice_orders").set({ live_trade_id: null }).where("invoice_id", "=", id).execute();

/**
 * Refuses issuing when a refund since the request left one of its orders with less than the
 * invoice counts for it: the invoice would exceed what was paid.
 */
async function checkStillPaid(trx: Kysely<DB>, inv: InvoiceRowDb): Promise<void> {
  const lines = (await linesOf(trx, [inv.id])).get(inv.id) ?? [];
  const orders = new Map(
    (
      await paidOnlineOrders(
        trx,
        inv.uid,
        lines.map((l) => l.trade_id),
      )
    ).map((o) => [o.trade_id, o]),
  );
  for (const l of lines) {
    const o = orders.get(l.trade_id);
    if (!o || invoiceableOf(o) < Number(l.amount))
      throw refused(`订单 ${l.trade_id} 在申请后已退款，发票金额超过实付金额，请退回让用户重新申请`);
  }
}

/**
 * PATCH /super/invoice. Each action is one conditional UPDATE on the status under the customer's
 * lock, so two operators (or two clicks) acting on the same invoice act once: the second is
 * refused. Audited in the same transaction; the customer sees the change marked on their list.
 */
export async function actOnInvoice(
  ctx: AppContext,
  op: Operator,
  body: Parsed<typeof AdminInvoiceActionBody>,
): Promise<AdminInvoiceRow> {
  const first = await findInvoice(ctx.db, body.invoice_id);
  if (!first) throw notFound("发票");
  const now = nowIso();
  const reason = body.reason ?? "";
  const handled = { handled_at: now, handled_by: op.uid, user_unread: 1 };
  const after = await ctx.db.transaction().execute(async (trx) => {
    await lockUser(trx, first.uid);
    const inv = (await findInvoice(trx, first.id))!;
    if (body.action === "issue") {
      if (inv.status !== InvoiceStatus.Awaiting) throw refused(`发票当前${statusWord(inv.status)}，不能开具`);
      if (!body.invoice_no && !inv.file) throw invalid("invoice_no", "请填写发票号码或上传发票 PDF");
      await checkStillPaid(trx, inv);
    } else if (body.action === "return") {
      if (inv.status !== InvoiceStatus.Awaiting)
        throw refused(`发票当前${statusWord(inv.status)}，只有待开具的发票可以退回`);
    } else {
      if (!LIVE.includes(inv.status as 1 | 2)) throw refused(`发票当前${statusWord(inv.status)}，不能取消`);
    }
    const to =
      body.action === "issue"
        ? { status: InvoiceStatus.Issued, invoice_no: body.invoice_no ?? null }
        : { status: body.action === "return" ? InvoiceStatus.Returned : InvoiceStatus.Cancelled, reason };
    const r = await trx
      .updateTable("invoices")
      .set({ ...to, ...handled })
      .where("id", "=", inv.id)
      .where("status", "=", inv.status)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw refused("发票状态已变化，请刷新后重试");
    if (body.action !== "issue") await releaseOrders(trx, inv.id);
    await audit(trx, {
      operatorUid: op.uid,
      action: `invoice.${body.action}`,
      target: `invoice:${inv.id}`,
      detail: {
        uid: inv.uid,
        amount: Number(inv.amount),
        from: inv.status,
        to: to.status,
        ...(body.invoice_no && { invoice_no: body.invoice_no }),
        ...(reason && { reason }),
        ...(inv.file && body.action === "issue" && { file_size: Number(inv.file_size) }),
      },
      ip: op.ip,
    });
    return (await findInvoice(trx, inv.id))!;
  });
  mailCustomer(ctx, after);
  return (await presentAdmin(ctx.db, [after]))[0];
}

const statusWord = (s: number) =>
  ({ [-1]: "已取消", 1: "已开具", 2: "待开具", 3: "已退回" })[s as -1 | 1 | 2 | 3] ?? `状态 ${s}`;

/**
 * Tells the customer by mail that their invoice changed. There is no mail transport yet (DESIGN
 * §6: the local driver logs); the change is also marked on the customer's invoice list.
 */
function mailCustomer(ctx: AppContext, inv: InvoiceRowDb): void {
  const subject =
    inv.status === InvoiceStatus.Issued
      ? `发票 #${inv.id} 已开具（${fenToYuan(Number(inv.amount))} 元）`
      : inv.status === InvoiceStatus.Returned
        ? `发票 #${inv.id} 已退回：${inv.reason}`
        : `发票 #${inv.id} 已取消${inv.reason ? `：${inv.reason}` : ""}`;
  ctx.log.info({ mail: { to: inv.email, subject } }, "[mail] invoice notice (logged: no mail transport configured)");
}

/** Records an uploaded PDF on an awaiting invoice (replacing an earlier one), audited. */
export async function attachFile(
  ctx: AppContext,
  op: Operator,
  id: number,
  file: { name: string; size: number },
): Promise<AdminInvoiceRow> {
  const before = await ctx.db.transaction().execute(async (trx) => {
    const inv = await findInvoice(trx, id);
    if (!inv) throw notFound("发票");
    const r = await trx
      .updateTable("invoices")
      .set({ file: file.name, file_size: file.size })
      .where("id", "=", id)
      .where("status", "=", InvoiceStatus.Awaiting)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw refused("只有待开具的发票可以上传文件");
    await audit(trx, {
      operatorUid: op.uid,
      action: "invoice.file",
      target: `invoice:${id}`,
      detail: { uid: inv.uid, size: file.size, replaced: inv.file !== null },
      ip: op.ip,
    });
    return inv;
  });
  if (before.file) await removeInvoiceFile(ctx, before.file);
  return adminInvoice(ctx.db, id);
}

/**
 * A refund of an order on a live invoice flags the invoice for the operator (an awaiting one can
 * no longer be issued for its amount; an issued one needs cancelling and a new request). Runs in
 * the refund's transaction, so the flag and the refund commit together.
 */
export const invoiceOrderHook: OrderHook = {
  async refunded(trx, order, refunded, now) {
    const line = await trx
      .selectFrom("invoice_orders")
      .select(["invoice_id", "amount"])
      .where("live_trade_id", "=", order.trade_id)
      .executeTakeFirst();
    if (!line) return;
    const inv = await findInvoice(trx, line.invoice_id);
    if (!inv) return;
    const note = `${now.toISOString().slice(0, 10)} 订单 ${order.trade_id} 退款 ${fenToYuan(refunded)} 元（发票计 ${fenToYuan(Number(line.amount))} 元）`;
    await trx
      .updateTable("invoices")
      .set({ flagged: 1, flag_note: inv.flag_note ? `${inv.flag_note}；${note}` : note })
      .where("id", "=", inv.id)
      .execute();
  },
};
