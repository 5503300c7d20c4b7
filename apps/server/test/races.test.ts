import type { CreatedGiftCards, CreateOrderResult, TunnelView } from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDomains } from "./domain-fixtures";
import { createTestNode, setPlan } from "./frp-fixtures";
import { createTestApp, nextPhone, type TestApp } from "./harness";
import { adminOf, balanceOf, giveBalance, makePlan, subsOf } from "./store-fixtures";

/**
 * Every money and limit path under N identical requests at once (issue 19 §5). Run on both
 * databases: `npx vitest run test/races.test.ts` and `TEST_DB=postgres npx vitest run test/races.test.ts`.
 */
let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  // Tunnel mechanics, not domain ownership (modules/domains tests that).
  openDomains(t);
  admin = await adminOf(t);
});
afterAll(() => t.close());

const N = 50;
const codes = (rs: { body: { code: string | number } }[]) => rs.map((r) => r.body.code);
const count = (rs: { body: { code: string | number } }[], code: string | number) =>
  rs.filter((r) => r.body.code === code).length;
const buy = (token: string, body: Record<string, unknown>) =>
  t.api<CreateOrderResult>("POST", "/user/order", { token, body: { pay_method: 1, ...body } });

/** The ledger of one customer chains row to row: no lost or doubled update. */
async function expectChainedLedger(uid: number): Promise<void> {
  const rows = await t.db.selectFrom("balance_ledger").selectAll().where("uid", "=", uid).orderBy("id").execute();
  for (let i = 1; i < rows.length; i++) expect(Number(rows[i].balance_before)).toBe(Number(rows[i - 1].balance_after));
  expect(Number(rows.at(-1)?.balance_after ?? 0)).toBe(await balanceOf(t, uid));
}

describe("money paths under concurrency", () => {
  it("50 concurrent plan purchases with the balance for one: one plan, one debit", async () => {
    const plan = await makePlan(t, { monthly_fee: 1000 });
    const u = await t.register();
    await giveBalance(t, u.uid, 1500);
    const rs = await Promise.all(
      Array.from({ length: N }, () => buy(u.token, { type: 2, plan_id: plan.id, period: "monthly" })),
    );
    // The first opens the plan; the others extend it only while the balance lasts (none can).
    expect(count(rs, "SUCCESS")).toBe(1);
    expect(count(rs, 20011)).toBe(N - 1);
    expect(await balanceOf(t, u.uid)).toBe(500);
    const live = (await subsOf(t, u.uid)).filter((s) => s.kind === 2 && s.status === 1);
    expect(live.map((s) => s.plan_id)).toEqual([plan.id]);
    const paid = await t.db
      .selectFrom("orders")
      .select("trade_id")
      .where("uid", "=", u.uid)
      .where("status", "=", 1)
      .execute();
    expect(paid).toHaveLength(1);
    await expectChainedLedger(u.uid);
  });

  it("a single-use promo code is spent once when customers race for it", async () => {
    const plan = await makePlan(t, { monthly_fee: 1000 });
    const made = await t.api("POST", "/super/discountCode", {
      token: admin,
      body: { code: "RACE-ONCE", discount: 0.5, expire_date: "2099-01-01", use_limit: 1, user_limit: 0 },
    });
    expect(made.body.code).toBe("SUCCESS");
    const users = await Promise.all(Array.from({ length: 10 }, () => t.register()));
    for (const u of users) await giveBalance(t, u.uid, 5000);
    const rs = await Promise.all(
      users.map((u) => buy(u.token, { type: 2, plan_id: plan.id, period: "monthly", code: "race-once" })),
    );
    expect(count(rs, "SUCCESS")).toBe(1);
    // The others are told the code is used up, on the code field, and pay nothing.
    expect(rs.filter((r) => r.body.code !== "SUCCESS").map((r) => r.body.code)).toEqual(Array(9).fill(10000));
    const balances = await Promise.all(users.map((u) => balanceOf(t, u.uid)));
    expect(balances.sort()).toEqual([...Array(9).fill(5000), 4500].sort());
    const used = await t.db
      .selectFrom("orders")
      .select("trade_id")
      .where("discount_code", "=", "RACE-ONCE")
      .where("status", "in", [0, 1])
      .execute();
    expect(used).toHaveLength(1);
  });

  it("a single-use promo code is held by one awaiting online order when customers race for it", async () => {
    const plan = await makePlan(t, { monthly_fee: 1000 });
    await t.api("POST", "/super/discountCode", {
      token: admin,
      body: { code: "RACE-ONLINE", discount: 0.5, expire_date: "2099-01-01", use_limit: 1, user_limit: 0 },
    });
    const users = await Promise.all(Array.from({ length: 10 }, () => t.register()));
    const rs = await Promise.all(
      users.map((u) =>
        buy(u.token, { type: 2, plan_id: plan.id, period: "monthly", code: "RACE-ONLINE", pay_method: 2 }),
      ),
    );
    expect(count(rs, "SUCCESS")).toBe(1);
    expect(count(rs, 10000)).toBe(9);
    const held = await t.db
      .selectFrom("orders")
      .select("trade_id")
      .where("discount_code", "=", "RACE-ONLINE")
      .execute();
    expect(held).toHaveLength(1);
  });

  it("a promo code with user_limit 1 is used once when one customer sends it many times at once", async () => {
    const plan = await makePlan(t, { type: 3, monthly_fee: 1000, traffic: 1 });
    await t.api("POST", "/super/discountCode", {
      token: admin,
      body: { code: "RACE-MINE", discount: 0.5, expire_date: "2099-01-01", use_limit: 0, user_limit: 1 },
    });
    const base = await makePlan(t, { monthly_fee: 100 });
    const u = await t.register();
    await giveBalance(t, u.uid, 100_000);
    // Packs need a live plan.
    expect((await buy(u.token, { type: 2, plan_id: base.id, period: "monthly" })).body.code).toBe("SUCCESS");
    const rs = await Promise.all(
      Array.from({ length: 20 }, () =>
        buy(u.token, { type: 3, plan_id: plan.id, period: "monthly", code: "RACE-MINE" }),
      ),
    );
    expect(count(rs, "SUCCESS")).toBe(1);
    expect(await balanceOf(t, u.uid)).toBe(100_000 - 100 - 500);
    await expectChainedLedger(u.uid);
  });

  it("one gift card raced by many customers credits exactly one of them", async () => {
    const r = await t.api<CreatedGiftCards>("POST", "/super/giftCard", {
      token: admin,
      body: { count: 1, type: 1, card_value: 700, expire_date: "2099-12-31", one_user_limit: 0 },
    });
    const card = r.body.data.card_numbers[0];
    const users = await Promise.all(Array.from({ length: 10 }, () => t.register()));
    const rs = await Promise.all(
      users.map((u) => t.api("POST", "/user/giftCard/redeem", { token: u.token, body: { card_number: card } })),
    );
    expect(count(rs, "SUCCESS")).toBe(1);
    const balances = await Promise.all(users.map((u) => balanceOf(t, u.uid)));
    expect(balances.reduce((a, b) => a + b, 0)).toBe(700);
  });

  it("one_user_limit holds when one customer redeems many cards of a batch at once", async () => {
    const r = await t.api<CreatedGiftCards>("POST", "/super/giftCard", {
      token: admin,
      body: { count: 10, type: 1, card_value: 300, expire_date: "2099-12-31", one_user_limit: 1 },
    });
    const u = await t.register();
    const rs = await Promise.all(
      r.body.data.card_numbers.map((c) =>
        t.api("POST", "/user/giftCard/redeem", { token: u.token, body: { card_number: c } }),
      ),
    );
    expect(count(rs, "SUCCESS")).toBe(1);
    expect(await balanceOf(t, u.uid)).toBe(300);
    // The same card sent many times by the same customer is used once as well.
    const again = await t.api<CreatedGiftCards>("POST", "/super/giftCard", {
      token: admin,
      body: { count: 1, type: 1, card_value: 200, expire_date: "2099-12-31", one_user_limit: 0 },
    });
    const same = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.api("POST", "/user/giftCard/redeem", {
          token: u.token,
          body: { card_number: again.body.data.card_numbers[0] },
        }),
      ),
    );
    expect(count(same, "SUCCESS")).toBe(1);
    expect(await balanceOf(t, u.uid)).toBe(500);
    await expectChainedLedger(u.uid);
  });

  it("concurrent refunds of one order refund it once", async () => {
    const plan = await makePlan(t, { monthly_fee: 1200 });
    const u = await t.register();
    await giveBalance(t, u.uid, 2000);
    const order = await buy(u.token, { type: 2, plan_id: plan.id, period: "monthly" });
    expect(order.body.code).toBe("SUCCESS");
    const rs = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.api("POST", "/super/epay/order/refund", { token: admin, body: { trade_id: order.body.data.trade_id } }),
      ),
    );
    expect(count(rs, "SUCCESS")).toBe(1);
    expect(count(rs, 2001)).toBe(9);
    // The value model refunds what is left (the day begun counts as used), once.
    const { refunded } = (rs.find((r) => r.body.code === "SUCCESS")?.body.data ?? {}) as { refunded: number };
    expect(refunded).toBeGreaterThan(0);
    expect(refunded).toBeLessThanOrEqual(1200);
    expect(await balanceOf(t, u.uid)).toBe(800 + refunded);
    const audits = await t.db
      .selectFrom("audit_logs")
      .select("id")
      .where("action", "=", "order.refund")
      .where("target", "=", `order:${order.body.data.trade_id}`)
      .execute();
    expect(audits).toHaveLength(1);
    await expectChainedLedger(u.uid);
  });

  it("every money path on one customer at once: the ledger chains and adds up to the balance", async () => {
    const plan = await makePlan(t, { monthly_fee: 300 });
    const pack = await makePlan(t, { type: 3, monthly_fee: 200, traffic: 1 });
    const u = await t.register();
    await giveBalance(t, u.uid, 2000);
    const first = await buy(u.token, { type: 2, plan_id: plan.id, period: "monthly" });
    const cards = await t.api<CreatedGiftCards>("POST", "/super/giftCard", {
      token: admin,
      body: { count: 5, type: 1, card_value: 100, expire_date: "2099-12-31", one_user_limit: 0 },
    });
    const rs = await Promise.all([
      ...Array.from({ length: 10 }, () => buy(u.token, { type: 3, plan_id: pack.id, period: "monthly" })),
      ...cards.body.data.card_numbers.map((c) =>
        t.api("POST", "/user/giftCard/redeem", { token: u.token, body: { card_number: c } }),
      ),
      ...Array.from({ length: 5 }, () =>
        t.api("PATCH", "/super/user/info", {
          token: admin,
          body: { uid: u.uid, balance_change: -50, balance_reason: "race" },
        }),
      ),
      t.api("POST", "/super/epay/order/refund", { token: admin, body: { trade_id: first.body.data.trade_id } }),
      t.api("GET", "/user/checkIn", { token: u.token }),
    ]);
    expect(rs.every((r) => r.status < 500)).toBe(true);
    await expectChainedLedger(u.uid);
    const rows = await t.db.selectFrom("balance_ledger").select("change").where("uid", "=", u.uid).execute();
    expect(rows.reduce((a, r) => a + Number(r.change), 0)).toBe(await balanceOf(t, u.uid));
    expect(await balanceOf(t, u.uid)).toBeGreaterThanOrEqual(0);
  });

  it("a daily check-in sent ten times at once is credited once", async () => {
    const u = await t.register();
    const rs = await Promise.all(Array.from({ length: 10 }, () => t.api("GET", "/user/checkIn", { token: u.token })));
    expect(count(rs, "SUCCESS")).toBe(1);
    const rows = await t.db.selectFrom("checkins").selectAll().where("uid", "=", u.uid).execute();
    expect(rows).toHaveLength(1);
    const subs = await subsOf(t, u.uid);
    // The bonus lands on the quota once (the free plan starts at its own quota).
    const plan = await t.db.selectFrom("plans").select("traffic").where("is_default", "=", 1).executeTakeFirstOrThrow();
    const quota = subs.filter((s) => s.status !== -1).reduce((a, s) => a + Number(s.traffic_quota), 0);
    expect(quota).toBe(Number(plan.traffic) * 1024 ** 3 + Number(rows[0].bonus_bytes));
  });
});

describe("limits under concurrency", () => {
  it("tunnel_limit holds under 20 concurrent creates", async () => {
    const node = await createTestNode(t);
    const u = await t.register();
    await setPlan(t, u.uid, { tunnel_limit: 3 });
    const rs = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.api<TunnelView>("POST", "/user/tun", {
          token: u.token,
          body: { tun_name: `lim${i}`, protocol: "tcp", local_port: 22, node_id: node.node_id, remote_port: 0 },
        }),
      ),
    );
    expect(count(rs, "SUCCESS")).toBe(3);
    expect(count(rs, 2001)).toBe(17);
    const live = await t.db
      .selectFrom("tunnels")
      .select("tun_id")
      .where("uid", "=", u.uid)
      .where("status", "<>", -1)
      .execute();
    expect(live).toHaveLength(3);
  });

  it("two customers racing for the same remote port: one gets it, the other 40001", async () => {
    const node = await createTestNode(t);
    const users = await Promise.all(Array.from({ length: 8 }, () => t.register()));
    for (const u of users) await setPlan(t, u.uid, { tunnel_limit: 5 });
    const rs = await Promise.all(
      users.map((u) =>
        t.api("POST", "/user/tun", {
          token: u.token,
          body: { tun_name: "same-port", protocol: "tcp", local_port: 22, node_id: node.node_id, remote_port: 20050 },
        }),
      ),
    );
    expect(count(rs, "SUCCESS")).toBe(1);
    expect(count(rs, 40001)).toBe(7);
    // tcp and udp share the port space.
    const udp = await t.api("POST", "/user/tun", {
      token: users[0].token,
      body: { tun_name: "udp-port", protocol: "udp", local_port: 53, node_id: node.node_id, remote_port: 20050 },
    });
    expect(udp.body.code).toBe(40001);
  });

  it("random ports picked at once are all different", async () => {
    const node = await createTestNode(t, { port_min: 21000, port_max: 21011 });
    const users = await Promise.all(Array.from({ length: 12 }, () => t.register()));
    for (const u of users) await setPlan(t, u.uid, { tunnel_limit: 5 });
    const rs = await Promise.all(
      users.map((u) =>
        t.api<TunnelView>("POST", "/user/tun", {
          token: u.token,
          body: { tun_name: "random", protocol: "tcp", local_port: 22, node_id: node.node_id, remote_port: 0 },
        }),
      ),
    );
    const ports = rs.filter((r) => r.body.code === "SUCCESS").map((r) => r.body.data.remote_port);
    // Twelve free ports for twelve customers: a retry after a collision finds another one.
    expect(new Set(ports).size).toBe(ports.length);
    expect(ports.length).toBeGreaterThanOrEqual(10);
    expect(codes(rs).every((c) => c === "SUCCESS" || c === 40001)).toBe(true);
  });

  it("customers racing for the same custom domain on a node: one gets it", async () => {
    const node = await createTestNode(t);
    const users = await Promise.all(Array.from({ length: 8 }, () => t.register()));
    for (const u of users) await setPlan(t, u.uid, { tunnel_limit: 5 });
    // Spellings of the same name race too: one canonical form is stored and compared.
    const spellings = ["race.example.com", "RACE.example.com", "race.example.com.", " Race.Example.Com "];
    const rs = await Promise.all(
      users.map((u, i) =>
        t.api("POST", "/user/tun", {
          token: u.token,
          body: {
            tun_name: "web",
            protocol: "http",
            local_port: 80,
            node_id: node.node_id,
            custom_domains: [spellings[i % spellings.length]],
          },
        }),
      ),
    );
    expect(count(rs, "SUCCESS")).toBe(1);
    expect(count(rs, 40001)).toBe(7);
    const rows = await t.db.selectFrom("tunnel_domains").select("domain").where("node_id", "=", node.node_id).execute();
    expect(rows.map((r) => r.domain)).toEqual(["race.example.com"]);
  });
});

describe("limits under concurrency: edits and subdomains", () => {
  it("customers racing for the same subdomain on a node: one gets it", async () => {
    const node = await createTestNode(t);
    const users = await Promise.all(Array.from({ length: 6 }, () => t.register()));
    for (const u of users) await setPlan(t, u.uid, { tunnel_limit: 5 });
    const rs = await Promise.all(
      users.map((u, i) =>
        t.api("POST", "/user/tun", {
          token: u.token,
          body: {
            tun_name: "sub",
            protocol: i % 2 ? "http" : "https",
            local_port: 80,
            node_id: node.node_id,
            subdomain: i % 2 ? "Racer" : "racer",
          },
        }),
      ),
    );
    expect(count(rs, "SUCCESS")).toBe(1);
    expect(count(rs, 40001)).toBe(5);
  });

  it("edits of different customers' tunnels racing for one port: one gets it", async () => {
    const node = await createTestNode(t);
    const users = await Promise.all(Array.from({ length: 6 }, () => t.register()));
    const tunnels: number[] = [];
    for (const [i, u] of users.entries()) {
      await setPlan(t, u.uid, { tunnel_limit: 5 });
      const r = await t.api<TunnelView>("POST", "/user/tun", {
        token: u.token,
        body: { tun_name: "edit", protocol: "tcp", local_port: 22, node_id: node.node_id, remote_port: 20010 + i },
      });
      tunnels.push(r.body.data.tun_id);
    }
    const rs = await Promise.all(
      users.map((u, i) =>
        t.api("PATCH", "/user/tun", { token: u.token, body: { tun_id: tunnels[i], remote_port: 20099 } }),
      ),
    );
    expect(count(rs, "SUCCESS")).toBe(1);
    expect(count(rs, 40001)).toBe(5);
    const holders = await t.db
      .selectFrom("tunnels")
      .select("tun_id")
      .where("node_id", "=", node.node_id)
      .where("remote_port", "=", 20099)
      .execute();
    expect(holders).toHaveLength(1);
  });
});

describe("SMS codes under concurrency", () => {
  it("ten code requests for one phone at once send one code", async () => {
    const phone = nextPhone();
    const before = t.sms.sent.length;
    const rs = await Promise.all(
      Array.from({ length: 10 }, () => t.api("POST", "/auth/sms", { body: { phone, scene: "register" } })),
    );
    expect(count(rs, "SUCCESS")).toBe(1);
    expect(count(rs, 2029)).toBe(9);
    expect(t.sms.sent.length - before).toBe(1);
  });

  it("one registration code used by five sign-ups at once makes one account", async () => {
    const phone = nextPhone();
    await t.api("POST", "/auth/sms", { body: { phone, scene: "register" } });
    const code = t.sms.last(phone);
    const rs = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        t.api("POST", "/auth/register", { body: { phone, code, password: `password-${i}-abc` } }),
      ),
    );
    expect(count(rs, "SUCCESS")).toBe(1);
    expect(rs.every((r) => r.status < 500)).toBe(true);
    const rows = await t.db.selectFrom("users").select("uid").where("phone", "=", phone).execute();
    expect(rows).toHaveLength(1);
  });

  it("one code used by ten requests at once works once", async () => {
    const u = await t.register();
    await t.api("POST", "/auth/sms", { body: { phone: u.phone, scene: "reset" } });
    const code = t.sms.last(u.phone);
    const rs = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        t.api("POST", "/auth/reset", { body: { phone: u.phone, code, password: `new-password-${i}` } }),
      ),
    );
    expect(count(rs, "SUCCESS")).toBe(1);
    expect(rs.filter((r) => r.body.code !== "SUCCESS").every((r) => r.status === 400)).toBe(true);
  });

  it("a flood of wrong guesses at once is judged at most five times, and then the code is spent", async () => {
    const u = await t.register();
    await t.api("POST", "/auth/sms", { body: { phone: u.phone, scene: "reset" } });
    const code = t.sms.last(u.phone);
    const wrong = (n: number) => String((Number(code) + n) % 1_000_000).padStart(6, "0");
    const rs = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        t.api<null>("POST", "/auth/reset", {
          body: { phone: u.phone, code: wrong(i + 1), password: "guess-password-1" },
        }),
      ),
    );
    expect(count(rs, "SUCCESS")).toBe(0);
    // "验证码错误" means the guess was compared with the code; beyond five, guesses are refused unjudged.
    expect(rs.filter((r) => r.body.msg.includes("验证码错误")).length).toBeLessThanOrEqual(5);
    const late = await t.api("POST", "/auth/reset", { body: { phone: u.phone, code, password: "late-password-1" } });
    expect(late.body.code).toBe(10000);
  });
});
