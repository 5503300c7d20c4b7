import type { AdminOrderRow, Paged } from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/harness";
import { clearLargeMemo, LARGE_ROWS } from "./large-memo";
import { ANCHOR_EVERY, DEEP_OFFSET, pageOf } from "./paging";

/**
 * Deep pages of a large list (pageIds): from DEEP_OFFSET on, a page seeks below a remembered id
 * instead of stepping over every id before it. On a list as it was when the ids were remembered,
 * every page must be exactly the page OFFSET gives, across anchor boundaries, at sizes that do
 * not divide ANCHOR_EVERY, on the last page and past the end, filtered or not.
 */
let t: TestApp;
let admin: string;
const COUNT = DEEP_OFFSET + 2 * ANCHOR_EVERY + 345;

/** An order row of `type` and `status`; only its id and those two matter to the lists here. */
function order(tradeId: string, type: number, status: number) {
  const at = new Date().toISOString();
  return {
    trade_id: tradeId,
    uid: 1,
    type,
    pay_method: 2,
    status,
    name: "x",
    action: "new",
    note: "",
    created_at: at,
    expires_at: at,
    fee: 1,
    price: 1,
    code_discount: 0,
    upgrade_credit: 0,
    bonus: 0,
    amount: 1,
  };
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  // A status filter that keeps about two thirds of the rows, unevenly.
  const rows = Array.from({ length: COUNT }, (_, i) => order(`T-deep-${i}`, 1 + (i % 4), i % 3 === 0 ? 0 : 1));
  for (let i = 0; i < rows.length; i += 500)
    await t.db
      .insertInto("orders")
      .values(rows.slice(i, i + 500))
      .execute();
}, 120_000);
afterAll(() => t.close());

/** The ids of a page as the list answers it. */
async function listed(query: Record<string, number>): Promise<{ ids: number[]; total: number }> {
  const r = await t.api<Paged<AdminOrderRow>>("GET", "/super/epay/order", { token: admin, query });
  expect(r.status).toBe(200);
  return { ids: r.body.data.list.map((o) => o.id), total: r.body.data.total };
}

/** The same page by plain OFFSET, straight from the table. */
async function byOffset(offset: number, size: number, status?: number): Promise<number[]> {
  let q = t.db.selectFrom("orders").select("id");
  if (status !== undefined) q = q.where("status", "=", status);
  return (await q.orderBy("id", "desc").limit(size).offset(offset).execute()).map((r) => r.id);
}

describe("deep pages of a large list", () => {
  it("answers every deep page exactly as OFFSET does, filtered or not", async () => {
    expect(COUNT).toBeGreaterThan(LARGE_ROWS);
    for (const status of [undefined, 1]) {
      const total = (await listed({ size: 1, ...(status === undefined ? {} : { status }) })).total;
      for (const size of [20, 7, 100]) {
        const pages = new Set<number>();
        // Around DEEP_OFFSET, each anchor boundary, the last page and one past it.
        for (const offset of [DEEP_OFFSET - 1, DEEP_OFFSET, DEEP_OFFSET + ANCHOR_EVERY - 1, DEEP_OFFSET + ANCHOR_EVERY])
          pages.add(Math.floor(offset / size) + 1);
        pages.add(Math.ceil(total / size));
        pages.add(Math.ceil(total / size) + 1);
        for (const page of pages) {
          const got = await listed({ page, size, ...(status === undefined ? {} : { status }) });
          expect(got.total).toBe(total);
          expect(got.ids).toEqual(await byOffset((page - 1) * size, size, status));
        }
      }
    }
  }, 120_000);

  it("answers an empty page far past the end, filtered or not, on the operator's and the customer's lists", async () => {
    const customer = await t.register();
    for (const page of [COUNT, 2 ** 31, 2e10]) {
      for (const query of [
        { page, size: 100 },
        { page, size: 100, status: 1 },
      ]) {
        const r = await t.api<Paged<AdminOrderRow>>("GET", "/super/epay/order", { token: admin, query });
        expect([r.status, r.body.data.list]).toEqual([200, []]);
      }
      const own = await t.api<Paged<unknown>>("GET", "/user/tun", {
        token: customer.token,
        query: { page, size: 100 },
      });
      expect([own.status, own.body.data.list]).toEqual([200, []]);
    }
  });

  it("places a deep page as of its total: rows added since move it only once both are read again", async () => {
    clearLargeMemo(t.db);
    const page = Math.floor(DEEP_OFFSET / 20) + 3;
    const before = await listed({ page, size: 20 });
    expect(before.ids).toEqual(await byOffset((page - 1) * 20, 20));
    const [newest] = await byOffset(0, 1);
    await t.db
      .insertInto("orders")
      .values([1, 2, 3].map((i) => order(`T-deep-new-${i}`, 1, 1)))
      .execute();
    // The first page is read live; the deep one and the total are the remembered ones.
    expect((await listed({ size: 1 })).ids[0]).toBeGreaterThan(newest);
    const meanwhile = await listed({ page, size: 20 });
    expect(meanwhile).toEqual(before);
    // Read again (as every FRESH_MS), both move by the three new rows.
    clearLargeMemo(t.db);
    const after = await listed({ page, size: 20 });
    expect(after.total).toBe(before.total + 3);
    expect(after.ids).toEqual(await byOffset((page - 1) * 20, 20));
    expect(after.ids.slice(3)).toEqual(before.ids.slice(0, 17));
  }, 60_000);
});

describe("pageOf's total", () => {
  /** A list of `n` rows, paged by pageOf, with its counts counted. */
  async function paged(n: number, page: number, size: number) {
    let counted = 0;
    const all = Array.from({ length: n }, (_, i) => i);
    const r = await pageOf(
      page,
      size,
      async (limit, offset) => all.slice(offset, offset + limit),
      async () => {
        counted++;
        return String(n);
      },
    );
    return { ...r, counted };
  }

  it("is the offset plus the rows of a short page, and 0 for an empty first page, without counting", async () => {
    expect(await paged(7, 1, 10)).toEqual({ list: [0, 1, 2, 3, 4, 5, 6], total: 7, page: 1, size: 10, counted: 0 });
    expect(await paged(23, 3, 10)).toMatchObject({ list: [20, 21, 22], total: 23, counted: 0 });
    expect(await paged(0, 1, 10)).toMatchObject({ list: [], total: 0, counted: 0 });
  });

  it("is counted for a full page and for an empty page past the end", async () => {
    expect(await paged(20, 2, 10)).toMatchObject({
      list: [10, 11, 12, 13, 14, 15, 16, 17, 18, 19],
      total: 20,
      counted: 1,
    });
    expect(await paged(25, 1, 10)).toMatchObject({ total: 25, counted: 1 });
    expect(await paged(25, 4, 10)).toMatchObject({ list: [], total: 25, counted: 1 });
  });
});
