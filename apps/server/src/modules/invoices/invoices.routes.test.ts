import type {
  AdminInvoiceRow,
  CreateOrderResult,
  InvoiceableOrder,
  InvoiceList,
  InvoiceRow,
  Paged,
} from "@burrow/contract";
import { describe, expect, it } from "vitest";
import { adminSuite } from "../../../test/admin-fixtures";
import { dropPhone, type TestApp } from "../../../test/harness";
import { balanceOf, giveBalance, makePlan } from "../../../test/store-fixtures";
import { recordOnlinePayment } from "../orders/orders.service";
import { isPdf } from "./invoice-files";

let t: TestApp;
let admin: string;
adminSuite((ready) => ({ t, admin } = ready));

const TAX_NO = "91110108551385082Q";
/** A tiny but complete PDF (header, one empty page, xref, trailer, %%EOF). */
const TINY_PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n" +
    "3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\nxref\n0 4\n0000000000 65535 f \n" +
    "trailer<</Size 4/Root 1 0 R>>\nstartxref\n0\n%%EOF\n",
  "latin1",
);

/** An order paid online through the gateway (the notify route's checks are tested in payments). */
async function paidOnline(token: string, body: Record<string, unknown>): Promise<CreateOrderResult> {
  const r = await t.api<CreateOrderResult>("POST", "/user/order", { token, body: { pay_method: 2, ...body } });
  if (r.body.code !== "SUCCESS") throw new Error(JSON.stringify(r.body));
  const o = r.body.data;
  expect(
    await recordOnlinePayment(t.ctx, { tradeId: o.trade_id, channelTradeId: `GW${o.trade_id}`, amount: o.amount }),
  ).toBe("paid");
  return o;
}
const recharge = (token: string, amount: number) => paidOnline(token, { type: 1, amount });

const invoiceable = async (token: string) =>
  (await t.api<InvoiceableOrder[]>("GET", "/user/invoice/orders", { token })).body.data;
const request = (token: string, body: Record<string, unknown>) =>
  t.api<InvoiceRow>("POST", "/user/invoice", {
    token,
    body: { title_type: "company", title: "示例科技有限公司", tax_no: TAX_NO, email: "fin@example.com", ...body },
  });
const act = (body: Record<string, unknown>, token = admin) =>
  t.api<AdminInvoiceRow>("PATCH", "/super/invoice", { token, body });
const queue = (query: Record<string, unknown>, token = admin) =>
  t.api<Paged<AdminInvoiceRow>>("GET", "/super/invoiceList", { token, query });
const mine = async (token: string) => (await t.api<InvoiceList>("GET", "/user/invoice", { token })).body.data;
const auditOf = (id: number) =>
  t.db.selectFrom("audit_logs").selectAll().where("target", "=", `invoice:${id}`).orderBy("id").execute();

async function upload(invoiceId: number, file: Buffer, token = admin) {
  const boundary = "----burrowinvoice";
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({
    method: "POST",
    url: `/api/super/invoice/file?invoice_id=${invoiceId}`,
    headers: { authorization: `Bearer ${token}`, "content-type": `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  return { status: res.statusCode, body: res.json() as { code: string | number; msg: string; data: AdminInvoiceRow } };
}
const download = (invoiceId: number, token: string) =>
  t.app.inject({
    method: "GET",
    url: `/api/user/invoice/${invoiceId}/file`,
    headers: { authorization: `Bearer ${token}` },
  });

describe("what may be invoiced", () => {
  it("lists online payments (recharges and purchases), not balance-paid orders nor recharge bonuses", async () => {
    const u = await t.register();
    const plan = await makePlan(t, { monthly_fee: 1500 });
    const promo = await t.api("POST", "/super/discountRecharge", {
      token: admin,
      body: {
        min_amount: 50_000,
        bonus: 5000,
        start_at: new Date(Date.now() - 3600_000).toISOString(),
        end_at: new Date(Date.now() + 3600_000).toISOString(),
      },
    });
    expect(promo.body.code).toBe("SUCCESS");
    const r = await recharge(u.token, 50_000);
    expect(await balanceOf(t, u.uid)).toBe(55_000);
    const p = await paidOnline(u.token, { type: 2, plan_id: plan.id, period: "monthly" });
    // Paid from the balance the recharge filled: that money is invoiced as the recharge.
    const pack = await t.api<CreateOrderResult>("POST", "/user/order", {
      token: u.token,
      body: {
        type: 2,
        plan_id: (await makePlan(t, { monthly_fee: 800, level: 3 })).id,
        period: "monthly",
        pay_method: 1,
      },
    });
    expect(pack.body.code).toBe("SUCCESS");
    const list = await invoiceable(u.token);
    expect(list.map((o) => [o.trade_id, o.invoiceable])).toEqual([
      [p.trade_id, 1500],
      [r.trade_id, 50_000],
    ]);
    const bad = await request(u.token, { trade_ids: [pack.body.data.trade_id] });
    expect([bad.status, bad.body.code, bad.body.msg]).toEqual([400, 10000, expect.stringContaining("trade_ids")]);
  });

  it("a balance credited by the operator is never invoiceable, and another customer's order is refused by name", async () => {
    const u = await t.register();
    await giveBalance(t, u.uid, 10_000);
    expect(await invoiceable(u.token)).toEqual([]);
    const other = await t.register();
    const o = await recharge(other.token, 2000);
    const r = await request(u.token, { trade_ids: [o.trade_id] });
    expect([r.status, r.body.code]).toEqual([400, 10000]);
    expect(r.body.msg).toContain(o.trade_id);
    expect(await t.db.selectFrom("invoices").select("id").where("uid", "=", u.uid).execute()).toEqual([]);
  });
});

describe("requesting", () => {
  it("sums the chosen orders, takes them off the invoiceable list, and never puts one on two live invoices", async () => {
    const u = await t.register();
    const a = await recharge(u.token, 3000);
    const b = await recharge(u.token, 2000);
    const c = await recharge(u.token, 1000);
    const r = await request(u.token, { trade_ids: [a.trade_id, b.trade_id] });
    expect(r.body.code).toBe("SUCCESS");
    expect(r.body.data).toMatchObject({ status: 2, amount: 5000, tax_no: TAX_NO, title_type: "company" });
    expect(r.body.data.orders.map((o) => o.trade_id)).toEqual([a.trade_id, b.trade_id]);
    expect((await invoiceable(u.token)).map((o) => o.trade_id)).toEqual([c.trade_id]);
    const again = await request(u.token, { trade_ids: [b.trade_id, c.trade_id] });
    expect([again.status, again.body.code]).toEqual([403, 2001]);
    expect(again.body.msg).toContain(b.trade_id);
    // A personal title needs no tax number.
    const personal = await request(u.token, {
      trade_ids: [c.trade_id],
      title_type: "personal",
      title: "张三",
      tax_no: "",
    });
    expect(personal.body.data).toMatchObject({ amount: 1000, tax_no: null, title_type: "personal" });
  });

  it('shows the operator no phone ("") for a customer without one, and the phone of one who has it', async () => {
    const [u, other] = [await t.register(), await t.register()];
    for (const c of [u, other]) {
      const o = await recharge(c.token, 1000);
      expect((await request(c.token, { trade_ids: [o.trade_id] })).body.code).toBe("SUCCESS");
    }
    await dropPhone(t, u.uid);
    expect((await queue({ uid: u.uid })).body.data.list.map((r) => r.phone)).toEqual([""]);
    expect((await queue({ uid: other.uid })).body.data.list.map((r) => r.phone)).toEqual([other.phone]);
  });

  it("twenty concurrent requests for the same orders make one invoice", async () => {
    const u = await t.register();
    const a = await recharge(u.token, 3000);
    const b = await recharge(u.token, 4000);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        request(u.token, { trade_ids: i % 2 ? [a.trade_id, b.trade_id] : [b.trade_id] }),
      ),
    );
    const ok = results.filter((r) => r.body.code === "SUCCESS");
    expect(ok).toHaveLength(1);
    expect(results.filter((r) => r.body.code !== "SUCCESS").every((r) => r.body.code === 2001)).toBe(true);
    const lines = await t.db
      .selectFrom("invoice_orders")
      .select(["trade_id"])
      .where("uid", "=", u.uid)
      .where("live_trade_id", "is not", null)
      .execute();
    expect(lines.map((l) => l.trade_id).sort()).toEqual(ok[0].body.data.orders.map((o) => o.trade_id).sort());
  });

  it.each([
    [{ tax_no: "91110108551385082A" }, "tax_no", "校验位"],
    [{ tax_no: undefined }, "tax_no", "纳税人识别号"],
    [{ title_type: "personal", title: "张三" }, "tax_no", "个人抬头"],
    [{ email: "not-mail" }, "email", "邮箱"],
    [{ trade_ids: [] }, "trade_ids", "至少"],
    [{ title: "" }, "title", "抬头"],
    [{ title_type: "vip" }, "title_type", "抬头类型"],
  ])("refuses bad input %j with 400/10000 naming %s", async (patch, field, words) => {
    const u = await t.register();
    const a = await recharge(u.token, 1000);
    const r = await request(u.token, { trade_ids: [a.trade_id], ...patch });
    expect([r.status, r.body.code]).toEqual([400, 10000]);
    expect(r.body.msg).toMatch(new RegExp(`^${field}: .*${words}`));
    expect(await invoiceable(u.token)).toHaveLength(1);
  });
});

describe("refunds", () => {
  it("invoices what was paid minus refunds, and a refund of an order on a live invoice flags it and blocks issuing", async () => {
    const u = await t.register();
    const plan = await makePlan(t, { monthly_fee: 3000 });
    const first = await paidOnline(u.token, { type: 2, plan_id: plan.id, period: "monthly" });
    const refunded = await t.api<{ refunded: number }>("POST", "/super/epay/order/refund", {
      token: admin,
      body: { trade_id: first.trade_id },
    });
    const back = refunded.body.data.refunded;
    expect(back).toBeGreaterThan(0);
    expect(back).toBeLessThan(3000);
    // Partly refunded: what is left may be invoiced, never more.
    expect(await invoiceable(u.token)).toEqual([
      expect.objectContaining({ trade_id: first.trade_id, amount: 3000, refunded: back, invoiceable: 3000 - back }),
    ]);

    const second = await paidOnline(u.token, { type: 2, plan_id: plan.id, period: "monthly" });
    const inv = (await request(u.token, { trade_ids: [first.trade_id, second.trade_id] })).body.data;
    expect(inv.amount).toBe(3000 - back + 3000);
    expect((await queue({ invoice_id: inv.invoice_id })).body.data.list[0].flagged).toBe(false);

    const r2 = await t.api<{ refunded: number }>("POST", "/super/epay/order/refund", {
      token: admin,
      body: { trade_id: second.trade_id },
    });
    expect(r2.body.code).toBe("SUCCESS");
    const flagged = (await queue({ flagged: 1 })).body.data.list;
    expect(flagged.map((i) => i.invoice_id)).toEqual([inv.invoice_id]);
    expect(flagged[0].flag_note).toContain(second.trade_id);
    const issue = await act({ invoice_id: inv.invoice_id, action: "issue", invoice_no: "24110000000012345678" });
    expect([issue.status, issue.body.code]).toEqual([403, 2001]);
    expect(issue.body.msg).toContain(second.trade_id);

    // Returned: its orders are free again, and the new request counts the refund.
    const ret = await act({ invoice_id: inv.invoice_id, action: "return", reason: "订单已退款，请重新申请" });
    expect(ret.body.data).toMatchObject({ status: 3, reason: "订单已退款，请重新申请" });
    const again = await request(u.token, { trade_ids: [first.trade_id, second.trade_id] });
    expect(again.body.data.amount).toBe(3000 - back + 3000 - r2.body.data.refunded);
  });

  it("a refund of an order on an issued invoice flags it; cancelling frees the order", async () => {
    const u = await t.register();
    const plan = await makePlan(t, { monthly_fee: 2000 });
    const o = await paidOnline(u.token, { type: 2, plan_id: plan.id, period: "monthly" });
    const inv = (await request(u.token, { trade_ids: [o.trade_id] })).body.data;
    expect(
      (await act({ invoice_id: inv.invoice_id, action: "issue", invoice_no: "24110000000099990001" })).body.data.status,
    ).toBe(1);
    await t.api("POST", "/super/epay/order/refund", { token: admin, body: { trade_id: o.trade_id } });
    expect((await queue({ invoice_id: inv.invoice_id })).body.data.list[0]).toMatchObject({ status: 1, flagged: true });
    const cancel = await act({ invoice_id: inv.invoice_id, action: "cancel", reason: "已红冲" });
    expect(cancel.body.data).toMatchObject({ status: -1, reason: "已红冲" });
    expect((await invoiceable(u.token)).map((x) => x.trade_id)).toEqual([o.trade_id]);
    expect((await auditOf(inv.invoice_id)).map((a) => a.action)).toEqual(["invoice.issue", "invoice.cancel"]);
  });
});

describe("the operator's actions", () => {
  it("issues with a PDF (non-PDF and oversized refused); the owner downloads it, nobody else", async () => {
    const u = await t.register();
    const o = await recharge(u.token, 8800);
    const inv = (await request(u.token, { trade_ids: [o.trade_id] })).body.data;
    expect((await queue({ status: 2, uid: u.uid })).body.data.list.map((i) => i.invoice_id)).toEqual([inv.invoice_id]);

    const none = await act({ invoice_id: inv.invoice_id, action: "issue" });
    expect([none.status, none.body.code, none.body.msg]).toEqual([400, 10000, expect.stringMatching(/^invoice_no: /)]);
    const html = await upload(inv.invoice_id, Buffer.from("<html><body>%PDF-1.4 not really</body></html>"));
    expect([html.status, html.body.code, html.body.msg]).toEqual([400, 10000, "file: 文件不是有效的 PDF"]);
    const truncated = await upload(inv.invoice_id, TINY_PDF.subarray(0, TINY_PDF.length - 8));
    expect(truncated.body.code).toBe(10000);
    const big = await upload(inv.invoice_id, Buffer.concat([TINY_PDF, Buffer.alloc(10 * 1024 * 1024)]));
    expect([big.status, big.body.code]).toEqual([400, 10000]);
    const up = await upload(inv.invoice_id, TINY_PDF);
    expect(up.body.data).toMatchObject({ file_size: TINY_PDF.length, status: 2, has_file: false });
    // Not issued yet: the customer cannot download it.
    expect((await download(inv.invoice_id, u.token)).statusCode).toBe(404);

    const issued = await act({ invoice_id: inv.invoice_id, action: "issue" });
    expect(issued.body.data).toMatchObject({ status: 1, has_file: true, invoice_no: null });
    const list = await mine(u.token);
    expect(list).toMatchObject({
      unread: 1,
      list: [{ invoice_id: inv.invoice_id, status: 1, has_file: true, unread: true }],
    });
    expect((await mine(u.token)).unread).toBe(0);

    const file = await download(inv.invoice_id, u.token);
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("application/pdf");
    expect(file.rawPayload.equals(TINY_PDF)).toBe(true);
    const stranger = await t.register();
    const denied = await download(inv.invoice_id, stranger.token);
    expect([denied.statusCode, denied.json().code]).toEqual([404, 2004]);
    const staffCopy = await t.app.inject({
      method: "GET",
      url: `/api/super/invoice/file?invoice_id=${inv.invoice_id}`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(staffCopy.rawPayload.equals(TINY_PDF)).toBe(true);
    // Issued: no more uploads, no return.
    expect((await upload(inv.invoice_id, TINY_PDF)).body.code).toBe(2001);
    expect((await act({ invoice_id: inv.invoice_id, action: "return", reason: "x" })).body.code).toBe(2001);
    expect((await auditOf(inv.invoice_id)).map((a) => a.action)).toEqual(["invoice.file", "invoice.issue"]);
  });

  it("a concurrent issue and return of one invoice act once", async () => {
    for (let round = 0; round < 3; round++) {
      const u = await t.register();
      const o = await recharge(u.token, 1200);
      const inv = (await request(u.token, { trade_ids: [o.trade_id] })).body.data;
      const results = await Promise.all([
        act({ invoice_id: inv.invoice_id, action: "issue", invoice_no: `2411000000${round}0000001` }),
        act({ invoice_id: inv.invoice_id, action: "return", reason: "抬头有误" }),
        act({ invoice_id: inv.invoice_id, action: "issue", invoice_no: `2411000000${round}0000002` }),
      ]);
      expect(results.filter((r) => r.body.code === "SUCCESS")).toHaveLength(1);
      expect(results.filter((r) => r.body.code === 2001)).toHaveLength(2);
      expect(await auditOf(inv.invoice_id)).toHaveLength(1);
      const row = (await queue({ invoice_id: inv.invoice_id })).body.data.list[0];
      const live = row.status === 1;
      expect((await invoiceable(u.token)).length).toBe(live ? 0 : 1);
    }
  });

  it("returning needs a reason and frees the orders; cancelling an awaiting request too", async () => {
    const u = await t.register();
    const o = await recharge(u.token, 1000);
    const inv = (await request(u.token, { trade_ids: [o.trade_id] })).body.data;
    const noReason = await act({ invoice_id: inv.invoice_id, action: "return" });
    expect([noReason.status, noReason.body.code, noReason.body.msg]).toEqual([
      400,
      10000,
      expect.stringMatching(/^reason: /),
    ]);
    const badNo = await act({ invoice_id: inv.invoice_id, action: "issue", invoice_no: "12" });
    expect(badNo.body.msg).toMatch(/^invoice_no: /);
    expect((await act({ invoice_id: inv.invoice_id, action: "void" })).body.msg).toMatch(/^action: /);
    expect((await act({ invoice_id: 999_999, action: "cancel" })).status).toBe(404);
    expect(
      (await act({ invoice_id: inv.invoice_id, action: "return", reason: "税号与抬头不符" })).body.data.status,
    ).toBe(3);
    expect((await mine(u.token)).list[0]).toMatchObject({ status: 3, reason: "税号与抬头不符", unread: true });
    expect((await act({ invoice_id: inv.invoice_id, action: "cancel" })).body.code).toBe(2001);
    const next = (await request(u.token, { trade_ids: [o.trade_id], title: "示例科技股份有限公司" })).body.data;
    expect((await act({ invoice_id: next.invoice_id, action: "cancel" })).body.data.status).toBe(-1);
    expect(await invoiceable(u.token)).toHaveLength(1);
    expect((await auditOf(inv.invoice_id)).map((a) => a.action)).toEqual(["invoice.return"]);
    const byTrade = (await queue({ trade_id: o.trade_id })).body.data.list;
    expect(byTrade.map((i) => i.invoice_id).sort()).toEqual([inv.invoice_id, next.invoice_id].sort());
  });

  it("refuses customers and support staff on every /super invoice call", async () => {
    const u = await t.register();
    const staff = await t.register();
    await t.api("PATCH", "/super/user/info", { token: admin, body: { uid: staff.uid, role: 2 } });
    const support = await t.login(staff.phone, staff.password);
    const o = await recharge(u.token, 1000);
    const inv = (await request(u.token, { trade_ids: [o.trade_id] })).body.data;
    for (const token of [u.token, support]) {
      expect((await queue({}, token)).status).toBe(403);
      const r = await act({ invoice_id: inv.invoice_id, action: "cancel" }, token);
      expect([r.status, r.body.code]).toEqual([403, 30004]);
      expect((await upload(inv.invoice_id, TINY_PDF, token)).status).toBe(403);
    }
    expect((await mine(u.token)).list[0].status).toBe(2);
  });
});

describe("isPdf", () => {
  it("wants the header at the start and %%EOF at the end", () => {
    expect(isPdf(TINY_PDF)).toBe(true);
    expect(isPdf(Buffer.concat([Buffer.from(" "), TINY_PDF]))).toBe(false);
    expect(isPdf(Buffer.from("%PDF-1.7\n%%EOF"))).toBe(false);
    expect(isPdf(Buffer.from(`%PDF-X.Y${"x".repeat(40)}%%EOF`))).toBe(false);
  });
});
