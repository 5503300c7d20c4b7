import fs from "node:fs";
import path from "node:path";
import { OrderType, PayStatus } from "@burrow/contract";
import type { Kysely } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { createDb } from "../src/db/database";
import type { DB } from "../src/db/schema";
import {
  freshPgDatabase,
  killAll,
  ok,
  registerCustomer,
  type ServerProcess,
  sandboxNotify,
  sendNotify,
  signIn,
  startServer,
  tempDir,
} from "./child-server";
import { ADMIN_PASSWORD, ADMIN_PHONE, TEST_DIALECT } from "./harness";
import { TEST_PLAN_FIELDS } from "./store-fixtures";

/**
 * Crashes lose nothing (docs/operations.md): a real server is killed with SIGKILL in the middle of
 * a load of balance purchases, online recharges and online plan orders whose gateway notifies
 * arrive several at once; after a restart every order the gateway was told "success" for is paid
 * exactly once, every balance equals the sum of its ledger, no subscription is half-applied, and
 * notifies re-sent after the restart credit nothing twice.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  await killAll();
  for (const c of cleanups) await c();
});

interface Placed {
  trade_id: string;
  amount: number;
  uid: number;
  notify?: URLSearchParams;
}

const CUSTOMERS = 6;
const TOP_UP = 1_000_000;

/** One customer's purchases, in a loop until the server goes away. */
async function shop(
  s: ServerProcess,
  c: { uid: number; token: string },
  planId: number,
  placed: Placed[],
  acked: Set<string>,
) {
  const order = async (body: Record<string, unknown>) => {
    const r = await s.api<{ trade_id: string; amount: number; status: number }>("POST", "/user/order", {
      token: c.token,
      body,
    });
    if (r.body.code !== "SUCCESS") throw new Error(`order refused: ${JSON.stringify(r.body)}`);
    return r.body.data;
  };
  const payOnline = async (o: { trade_id: string; amount: number }) => {
    const p: Placed = { ...o, uid: c.uid, notify: sandboxNotify(o) };
    placed.push(p);
    // The gateway retries: the same notify arrives three times at once.
    const answers = await Promise.all([1, 2, 3].map(() => sendNotify(s, p.notify as URLSearchParams)));
    if (answers.includes("success")) acked.add(o.trade_id);
  };
  try {
    for (let i = 0; ; i++) {
      await payOnline(
        await order({ type: OrderType.Recharge, amount: 1000 + ((c.uid * 7 + i) % 50) * 100, pay_method: 2 }),
      );
      const bought = await order({ type: OrderType.Plan, plan_id: planId, period: "monthly", pay_method: 1 });
      placed.push({ ...bought, uid: c.uid });
      await payOnline(await order({ type: OrderType.Plan, plan_id: planId, period: "monthly", pay_method: 2 }));
    }
  } catch {
    // the server was killed
  }
}

/** What must hold in the database whatever moment the process died at. */
async function checkInvariants(db: Kysely<DB>, uids: number[], acked: Set<string>): Promise<void> {
  const orders = await db.selectFrom("orders").selectAll().where("uid", "in", uids).execute();
  const byTrade = new Map(orders.map((o) => [o.trade_id, o]));
  for (const t of acked)
    expect(byTrade.get(t)?.status, `order ${t} was acknowledged to the gateway`).toBe(PayStatus.Paid);

  const ledger = await db.selectFrom("balance_ledger").selectAll().where("uid", "in", uids).execute();
  const perOrder = new Map<string, number[]>();
  for (const l of ledger)
    if (l.order_id) perOrder.set(l.order_id, [...(perOrder.get(l.order_id) ?? []), Number(l.change)]);
  for (const o of orders) {
    const rows = perOrder.get(o.trade_id) ?? [];
    const paid = o.status === PayStatus.Paid;
    // Paid exactly once: one ledger row for a recharge or a balance purchase, none otherwise.
    if (paid && o.type === OrderType.Recharge) expect(rows, `recharge ${o.trade_id}`).toEqual([Number(o.amount)]);
    else if (paid && o.pay_method === 1) expect(rows, `balance purchase ${o.trade_id}`).toEqual([-Number(o.amount)]);
    else expect(rows, `order ${o.trade_id} (status ${o.status})`).toEqual([]);
    if (paid && o.type === OrderType.Plan) {
      expect(o.fulfilment, `plan order ${o.trade_id}`).not.toBeNull();
      expect(o.paid_at).not.toBeNull();
    }
    if (!paid) {
      expect(o.fulfilment).toBeNull();
      expect(o.sub_end_after).toBeNull();
      expect(o.paid_at).toBeNull();
    }
  }

  for (const uid of uids) {
    const u = await db.selectFrom("users").select("balance").where("uid", "=", uid).executeTakeFirstOrThrow();
    const sum = ledger.filter((l) => l.uid === uid).reduce((a, l) => a + Number(l.change), 0);
    expect(Number(u.balance), `balance of ${uid} vs its ledger`).toBe(sum);
  }

  // No subscription half-applied: each one's end is where its last paid extension put it, and
  // every subscription a plan order opened belongs to a paid order.
  const subs = await db.selectFrom("subscriptions").selectAll().where("uid", "in", uids).execute();
  for (const sub of subs) {
    if (sub.trade_id && byTrade.has(sub.trade_id))
      expect(byTrade.get(sub.trade_id)?.status, `subscription ${sub.id}'s order`).toBe(PayStatus.Paid);
    const extensions = orders
      .filter((o) => o.status === PayStatus.Paid && o.subscription_id === sub.id && o.sub_end_after)
      .map((o) => o.sub_end_after as string)
      .sort();
    if (extensions.length > 0) expect(sub.end_at, `subscription ${sub.id}'s end`).toBe(extensions.at(-1));
  }
  const paidPlans = orders.filter((o) => o.status === PayStatus.Paid && o.type === OrderType.Plan);
  for (const o of paidPlans) {
    const opened = subs.some((s) => s.trade_id === o.trade_id);
    expect(opened || o.sub_end_after !== null || o.fulfilment === "credited", `plan order ${o.trade_id} applied`).toBe(
      true,
    );
  }
}

describe(`crashes lose nothing (${TEST_DIALECT})`, () => {
  it("SIGKILL under purchases, recharges and concurrent notifies; restart; re-sent notifies credit nothing twice", async () => {
    const dataDir = tempDir("crash");
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const env: Record<string, string> = {};
    if (TEST_DIALECT === "postgres") {
      const pg = await freshPgDatabase();
      cleanups.push(pg.drop);
      env.DATABASE_URL = pg.url;
    }
    let s = await startServer({ dataDir, env });
    const admin = await signIn(s, ADMIN_PHONE, ADMIN_PASSWORD);
    const levels = ok(
      await s.api<{ list: { id: number; level: number }[] }>("GET", "/super/plan/level", { token: admin }),
      "levels",
    );
    const plan = ok(
      await s.api<{ id: number }>("POST", "/super/plan", {
        token: admin,
        body: {
          name: "crash-plan",
          level_id: levels.list.find((l) => l.level === 2)?.id,
          ...TEST_PLAN_FIELDS,
        },
      }),
      "plan",
    );
    const customers = [];
    for (let i = 0; i < CUSTOMERS; i++) {
      const c = await registerCustomer(s, `1390000${String(2000 + i)}`);
      ok(
        await s.api("PATCH", "/super/user/info", {
          token: admin,
          body: { uid: c.uid, balance_change: TOP_UP, balance_reason: "crash test" },
        }),
        "top-up",
      );
      customers.push(c);
    }
    const uids = customers.map((c) => c.uid);

    const placed: Placed[] = [];
    const acked = new Set<string>();
    const load = Promise.all(customers.map((c) => shop(s, c, plan.id, placed, acked)));
    // Kill it once the load is well under way.
    const t0 = Date.now();
    while (Date.now() - t0 < 15_000 && placed.length < 60) await new Promise((r) => setTimeout(r, 20));
    s.child.kill("SIGKILL");
    await s.exited;
    await load;
    expect(placed.length).toBeGreaterThanOrEqual(30);
    expect(acked.size).toBeGreaterThan(5);

    s = await startServer({ dataDir, env });
    const db = createDb(
      env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { sqliteFile: path.join(dataDir, "burrow.sqlite") },
    );
    try {
      await checkInvariants(db, uids, acked);
      const counts = await db
        .selectFrom("orders")
        .select(["status", (eb) => eb.fn.countAll<number>().as("n")])
        .where("uid", "in", uids)
        .groupBy("status")
        .execute();
      console.log(
        `crash: ${placed.length} orders placed, ${acked.size} acknowledged; by status after restart:`,
        counts,
      );
      const before = await db.selectFrom("orders").select(["trade_id", "status"]).where("uid", "in", uids).execute();
      const paidBefore = new Set(before.filter((o) => o.status === PayStatus.Paid).map((o) => o.trade_id));

      // The gateway re-sends every notify (twice at once): all are acknowledged now, and the ones
      // paid before the crash change nothing.
      const online = placed.filter((p) => p.notify);
      const again = await Promise.all(
        online.flatMap((p) => [sendNotify(s, p.notify as URLSearchParams), sendNotify(s, p.notify as URLSearchParams)]),
      );
      expect(again.every((a) => a === "success")).toBe(true);
      for (const p of online) acked.add(p.trade_id);
      await checkInvariants(db, uids, acked);
      const after = await db.selectFrom("orders").select(["trade_id", "status"]).where("uid", "in", uids).execute();
      for (const o of after) if (paidBefore.has(o.trade_id)) expect(o.status).toBe(PayStatus.Paid);
    } finally {
      await db.destroy();
    }
  }, 180_000);
});
