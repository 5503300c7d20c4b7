import { NodeStatus, type NoticeSettings, type NoticeView, type Paged } from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestNode, tunnelRow } from "../../../test/frp-fixtures";
import { createTestApp, type TestApp } from "../../../test/harness";
import { type Inbox, startSmtp, subjectOf, textOf } from "../../../test/smtp-fixtures";
import { giveBalance, makePlan } from "../../../test/store-fixtures";
import { recordEvent } from "../../shared/outbox";
import { dispatchOutbox } from "../../shared/outbox-dispatch";
import { DAY_MS } from "../../shared/time";
import { direct, transact } from "../../shared/tx";
import { setNodeHealth } from "../nodes/nodes.service";
import { watchQueues } from "../overview/queue-watch";
import { recordPlansExpiring } from "../subscriptions/expiry-events";
import { chargeTraffic } from "../subscriptions/quota";
import { expireSubscriptions } from "../subscriptions/subscriptions.service";
import { tunnelSeenOnline, tunnelsGone } from "../tunnels/sessions";
import { NOTICE_DEBOUNCE_MS, sendDueNotices } from "./deliver";

let t: TestApp;
let smtp: Inbox;
beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ SMTP_URL: smtp.url, MAIL_FROM: "Burrow <noreply@burrow.test>" });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const notices = (token: string, query: Record<string, unknown> = {}) =>
  t.api<Paged<NoticeView>>("GET", "/user/notice", { token, query });
const unread = async (token: string) =>
  (await t.api<{ count: number }>("GET", "/user/notice/unread", { token })).body.data.count;

async function openTicket(token: string, title = "隧道连不上") {
  const r = await t.api<{ ticket_id: number }>("POST", "/user/ticket", {
    token,
    body: { title, category: "other", content: "login to server failed" },
  });
  expect(r.body.code).toBe("SUCCESS");
  return r.body.data.ticket_id;
}
async function staffReply(ticketId: number) {
  const r = await t.api("POST", `/super/ticket/${ticketId}/reply`, {
    token: await t.adminToken(),
    body: { content: "请重启 frpc 再试" },
  });
  expect(r.body.code).toBe("SUCCESS");
}

describe("the notification centre", () => {
  it("a staff reply to a ticket becomes one unread notice, shown once however often the event is handled; read one, read all", async () => {
    const u = await t.register();
    const ticket = await openTicket(u.token, "工单标题甲");
    await staffReply(ticket);
    expect(await unread(u.token)).toBe(0); // after the commit, through the outbox
    await dispatchOutbox(t.ctx);
    expect(await unread(u.token)).toBe(1);
    const list = (await notices(u.token)).body.data;
    expect(list.total).toBe(1);
    expect(list.list[0]).toMatchObject({
      type: "ticket.replied",
      label: "工单有新回复",
      title: "工单有新回复：工单标题甲",
      link: `/help/ticket/${ticket}`,
      read: false,
    });

    // At least once: the handler runs again (its delivery marked pending), nothing new appears.
    await t.db.updateTable("outbox_deliveries").set({ status: "pending", attempts: 0 }).execute();
    await t.db
      .updateTable("outbox_deliveries")
      .set({ next_at: new Date(0).toISOString() })
      .execute();
    await dispatchOutbox(t.ctx);
    expect((await notices(u.token)).body.data.total).toBe(1);

    // Another customer cannot read it; the owner can, once.
    const other = await t.register();
    const id = list.list[0].id;
    expect((await t.api("POST", `/user/notice/${id}/read`, { token: other.token })).status).toBe(404);
    const read = await t.api<NoticeView>("POST", `/user/notice/${id}/read`, { token: u.token });
    expect(read.body.data.read).toBe(true);
    expect(await unread(u.token)).toBe(0);

    await staffReply(ticket);
    await staffReply(ticket);
    await dispatchOutbox(t.ctx);
    expect(await unread(u.token)).toBe(2);
    expect((await notices(u.token, { unread: 1 })).body.data.total).toBe(2);
    const all = await t.api<{ count: number }>("POST", "/user/notice/readAll", { token: u.token });
    expect(all.body.data.count).toBe(2);
    expect(await unread(u.token)).toBe(0);
    expect(await unread(other.token)).toBe(0);
  });

  it("an operator's refund tells the customer, with the amount", async () => {
    const plan = await makePlan(t, { monthly_fee: 1500 });
    const u = await t.register();
    await giveBalance(t, u.uid, 2000);
    const bought = await t.api<{ trade_id: string }>("POST", "/user/order", {
      token: u.token,
      body: { type: 2, plan_id: plan.id, period: "monthly", pay_method: 1 },
    });
    expect(bought.body.code).toBe("SUCCESS");
    const refund = await t.api<{ refunded: number }>("POST", "/super/epay/order/refund", {
      token: await t.adminToken(),
      body: { trade_id: bought.body.data.trade_id },
    });
    expect(refund.body.code).toBe("SUCCESS");
    await dispatchOutbox(t.ctx);
    const refunded = (await notices(u.token)).body.data.list.find((n) => n.type === "order.refunded");
    expect(refunded?.body).toContain(bought.body.data.trade_id);
    expect(refunded?.body).toContain(`${(refund.body.data.refunded / 100).toFixed(2)} 元`);
  });

  it("a node going down tells every Manager (after the debounce), not customers; back up too", async () => {
    const u = await t.register();
    const admin = await t.adminToken();
    const node = await createTestNode(t);
    const mine = async () => (await notices(admin)).body.data.list.filter((n) => n.title.includes(node.name));
    const later = (ms: number) => new Date(Date.now() + ms);
    await setNodeHealth(direct(t.ctx), node.node_id, NodeStatus.Online);
    await transact(t.ctx, (trx) => setNodeHealth(trx, node.node_id, NodeStatus.Offline, "connect ECONNREFUSED"));
    await dispatchOutbox(t.ctx);
    expect(await mine()).toEqual([]); // a new node's first "up" tells nobody; the "down" waits
    await sendDueNotices(t.ctx, later(NOTICE_DEBOUNCE_MS + 1000));
    const [down] = await mine();
    expect(down).toMatchObject({ type: "node.down", link: "/admin/node" });
    expect(down.body).toContain("connect ECONNREFUSED");
    expect((await notices(u.token)).body.data.total).toBe(0);
    // offline → exception is not another "down"
    await transact(t.ctx, (trx) => setNodeHealth(trx, node.node_id, NodeStatus.Exception, "timeout"));
    await transact(t.ctx, (trx) => setNodeHealth(trx, node.node_id, NodeStatus.Online));
    await dispatchOutbox(t.ctx);
    await sendDueNotices(t.ctx, later(2 * NOTICE_DEBOUNCE_MS + 2000));
    expect((await mine()).map((n) => n.type)).toEqual(["node.up", "node.down"]);
  });
});

describe("channels", () => {
  it("refuses SMS for an event that is not urgent, naming the field, and changes nothing", async () => {
    const u = await t.register();
    const r = await t.api("PUT", "/user/notice/settings", {
      token: u.token,
      body: { type: "ticket.replied", channels: ["site", "sms"] },
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(10000);
    expect(r.body.msg).toContain("channels");
    const bad = await t.api("PUT", "/user/notice/settings", { token: u.token, body: { type: "nope", channels: [] } });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain("type");
    // a customer cannot choose an operator event
    const staffOnly = await t.api("PUT", "/user/notice/settings", {
      token: u.token,
      body: { type: "node.down", channels: ["site"] },
    });
    expect(staffOnly.status).toBe(400);
    const s = (await t.api<NoticeSettings>("GET", "/user/notice/settings", { token: u.token })).body.data;
    expect(s.events.find((e) => e.type === "ticket.replied")?.channels).toEqual(["site", "email"]);
    expect(s.events.some((e) => e.type === "node.down")).toBe(false);
    expect(s.events.find((e) => e.type === "quota.100")?.allowed).toEqual(["site", "email", "sms"]);
  });

  it("compares at most five guesses of an e-mail code, however many come at once; then the right code is refused too", async () => {
    const u = await t.register();
    const address = `g${u.uid}@example.com`;
    expect((await t.api("POST", "/user/notice/email", { token: u.token, body: { email: address } })).body.code).toBe(
      "SUCCESS",
    );
    const code = /验证码是 (\d{6})/.exec(
      textOf([...smtp.mails].reverse().find((m) => m.to.includes(address))!.raw),
    )?.[1];
    const wrong = code === "000000" ? "111111" : "000000";
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        t.api<null>("POST", "/user/notice/email/verify", { token: u.token, body: { code: wrong } }),
      ),
    );
    const msgs = answers.map((a) => a.body.msg);
    expect(msgs.filter((m) => m.includes("验证码错误次数过多"))).toHaveLength(25);
    expect(msgs.filter((m) => /验证码错误$/.test(m))).toHaveLength(5);
    const late = await t.api("POST", "/user/notice/email/verify", { token: u.token, body: { code } });
    expect(late.status).toBe(400);
    expect(late.body.msg).toContain("次数过多");
  });

  it("a code the SMTP server refuses is a clear error, keeps the address in force and spends no send allowance", async () => {
    const u = await t.register();
    const kept = `k${u.uid}@example.com`;
    const setEmail = (email: string) =>
      t.api<NoticeSettings>("POST", "/user/notice/email", { token: u.token, body: { email } });
    expect((await setEmail(kept)).body.code).toBe("SUCCESS");
    const code = /验证码是 (\d{6})/.exec(textOf([...smtp.mails].reverse().find((m) => m.to.includes(kept))!.raw))?.[1];
    await t.api("POST", "/user/notice/email/verify", { token: u.token, body: { code } });
    // a limit of one send a minute: each refused send below would have spent it
    await t.ctx.limiter.reset(`notice-mail:1m:${u.uid}`);

    const bounced = await setEmail(`bounce${u.uid}@example.com`);
    expect([bounced.status, bounced.body.code]).toEqual([400, 10000]);
    expect(bounced.body.msg).toMatch(/^email: 邮件服务器拒收该地址/);
    const busy = await setEmail(`busy${u.uid}@example.com`);
    expect([busy.status, busy.body.code]).toEqual([403, 2001]);
    expect(busy.body.msg).toContain("验证码邮件发送失败");
    const settings = await t.api<NoticeSettings>("GET", "/user/notice/settings", { token: u.token });
    expect(settings.body.data.email).toMatchObject({ address: kept, verified: true });

    // the failed sends took nothing of the minute's one send
    const next = `n${u.uid}@example.com`;
    const ok = await setEmail(next);
    expect(ok.body.code).toBe("SUCCESS");
    expect(ok.body.data.email).toMatchObject({ address: next, verified: false });
    expect(smtp.mails.some((m) => m.to.includes(next))).toBe(true);
  });

  it("mails a verified notice address over SMTP: the code, then the notice (to, subject, body)", async () => {
    const u = await t.register();
    const address = `u${u.uid}@example.com`;
    const set = await t.api<NoticeSettings>("POST", "/user/notice/email", { token: u.token, body: { email: address } });
    expect(set.body.code).toBe("SUCCESS");
    expect(set.body.data.email).toMatchObject({ address, verified: false, available: true });
    const codeMail = [...smtp.mails].reverse().find((m) => m.to.includes(address))!;
    expect(subjectOf(codeMail.raw)).toBe("【Burrow】通知邮箱验证码");
    const code = /验证码是 (\d{6})/.exec(textOf(codeMail.raw))?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const wrong = await t.api("POST", "/user/notice/email/verify", {
      token: u.token,
      body: { code: code === "000000" ? "111111" : "000000" },
    });
    expect(wrong.status).toBe(400);
    const ok = await t.api<NoticeSettings>("POST", "/user/notice/email/verify", { token: u.token, body: { code } });
    expect(ok.body.data.email).toMatchObject({ address, verified: true, reason: null });

    const before = smtp.mails.length;
    const ticket = await openTicket(u.token, "邮件工单");
    await staffReply(ticket);
    await dispatchOutbox(t.ctx);
    const mail = smtp.mails.slice(before).find((m) => m.to.includes(address));
    expect(mail).toBeDefined();
    expect(subjectOf(mail!.raw)).toBe("【Burrow】工单有新回复：邮件工单");
    expect(textOf(mail!.raw)).toContain(`客服回复了您的工单「邮件工单」（#${ticket}）`);
    expect(mail!.raw).toMatch(/^From: Burrow <noreply@burrow\.test>/m);
    // once per (event, channel): handled again, no second mail
    await t.db
      .updateTable("outbox_deliveries")
      .set({ status: "pending", next_at: new Date(0).toISOString() })
      .execute();
    await dispatchOutbox(t.ctx);
    expect(smtp.mails.slice(before).filter((m) => m.to.includes(address))).toHaveLength(1);

    // e-mail off for ticket replies: the next reply is a notice only
    await t.api("PUT", "/user/notice/settings", {
      token: u.token,
      body: { type: "ticket.replied", channels: ["site"] },
    });
    await staffReply(ticket);
    await dispatchOutbox(t.ctx);
    expect(smtp.mails.slice(before).filter((m) => m.to.includes(address))).toHaveLength(1);
    expect(await unread(u.token)).toBe(2);
  });

  it("sends urgent notices by SMS when chosen", async () => {
    const u = await t.register();
    const r = await t.api("PUT", "/user/notice/settings", {
      token: u.token,
      body: { type: "tunnel.offline", channels: ["site", "sms"] },
    });
    expect(r.body.code).toBe("SUCCESS");
    const node = await createTestNode(t);
    const tun = await insertTunnel(u.uid, node.node_id);
    await transact(t.ctx, (trx) => tunnelSeenOnline(trx, tun, null, new Date().toISOString()));
    await transact(t.ctx, (trx) => tunnelsGone(trx, [tun]));
    await dispatchOutbox(t.ctx);
    await sendDueNotices(t.ctx, new Date(Date.now() + NOTICE_DEBOUNCE_MS + 1000));
    const sms = t.sms.sent.filter((m) => m.phone === u.phone && m.scene === "notice");
    expect(sms).toHaveLength(1);
    expect(sms[0].code).toContain("已离线");
  });
});

async function insertTunnel(uid: number, nodeId: number): Promise<number> {
  const name = `t${Math.random().toString(36).slice(2, 8)}`;
  const row = tunnelRow({ uid, node_id: nodeId, tun_name: name, remote_port: 20000 + Math.floor(Math.random() * 100) });
  const r = await t.db.insertInto("tunnels").values(row).returning("tun_id").executeTakeFirstOrThrow();
  return r.tun_id;
}

describe("tunnel status, debounced", () => {
  it("an offline that comes back within 2 minutes sends nothing; one that stays away is told, then its return", async () => {
    const u = await t.register();
    const node = await createTestNode(t);
    const tun = await insertTunnel(u.uid, node.node_id);
    const online = () => transact(t.ctx, (trx) => tunnelSeenOnline(trx, tun, null, new Date().toISOString()));
    const offline = () => transact(t.ctx, (trx) => tunnelsGone(trx, [tun]));
    const later = (ms: number) => new Date(Date.now() + ms);

    await online();
    await offline();
    await online(); // back within the window
    await dispatchOutbox(t.ctx);
    expect(await sendDueNotices(t.ctx, later(NOTICE_DEBOUNCE_MS + 5_000))).toBe(0);
    expect((await notices(u.token)).body.data.total).toBe(0);

    await offline(); // stays away
    await dispatchOutbox(t.ctx);
    expect(await sendDueNotices(t.ctx, later(30_000))).toBe(0); // not before the debounce
    await sendDueNotices(t.ctx, later(NOTICE_DEBOUNCE_MS + 5_000));
    let list = (await notices(u.token)).body.data.list;
    expect(list.map((n) => n.type)).toEqual(["tunnel.offline"]);
    expect(list[0].title).toContain("已离线");

    await online();
    await dispatchOutbox(t.ctx);
    await sendDueNotices(t.ctx, later(2 * NOTICE_DEBOUNCE_MS + 10_000));
    list = (await notices(u.token)).body.data.list;
    expect(list.map((n) => n.type)).toEqual(["tunnel.online", "tunnel.offline"]);
  });
});

describe("owners' events", () => {
  it("a paid plan's end: reminders 3 and 1 days before (each once), then expired", async () => {
    const plan = await makePlan(t, { monthly_fee: 1500 });
    const u = await t.register();
    await giveBalance(t, u.uid, 2000);
    await t.api("POST", "/user/order", {
      token: u.token,
      body: { type: 2, plan_id: plan.id, period: "monthly", pay_method: 1 },
    });
    const sub = await t.db
      .selectFrom("subscriptions")
      .select("id")
      .where("uid", "=", u.uid)
      .where("plan_id", "=", plan.id)
      .executeTakeFirstOrThrow();
    const endIn = (ms: number) =>
      t.db
        .updateTable("subscriptions")
        .set({ end_at: new Date(Date.now() + ms).toISOString() })
        .where("id", "=", sub.id)
        .execute();
    const titles = async () =>
      (await notices(u.token)).body.data.list.filter((n) => n.type.startsWith("plan.")).map((n) => n.title);
    await endIn(2.5 * DAY_MS);
    expect(await recordPlansExpiring(t.ctx)).toBe(1);
    expect(await recordPlansExpiring(t.ctx)).toBe(0);
    await dispatchOutbox(t.ctx);
    expect(await titles()).toEqual([`套餐「${plan.name}」将在 3 天后到期`]);
    // an hour later, inside a day of the same end
    expect(await recordPlansExpiring(t.ctx, new Date(Date.now() + 1.6 * DAY_MS))).toBe(1);
    await endIn(-60_000);
    await expireSubscriptions(t.ctx);
    await expireSubscriptions(t.ctx);
    await dispatchOutbox(t.ctx);
    expect(await titles()).toEqual([
      `套餐「${plan.name}」已到期`,
      `套餐「${plan.name}」将在 1 天后到期`,
      `套餐「${plan.name}」将在 3 天后到期`,
    ]);
  });

  it("traffic: 80 %, 95 % and used up, each once per period", async () => {
    const u = await t.register();
    const quota = await t.db
      .selectFrom("subscriptions")
      .select("traffic_quota")
      .where("uid", "=", u.uid)
      .executeTakeFirstOrThrow();
    const charge = (bytes: number) => transact(t.ctx, (trx) => chargeTraffic(trx, u.uid, bytes));
    const q = Number(quota.traffic_quota);
    await charge(Math.ceil(q * 0.96));
    await charge(Math.ceil(q * 0.01));
    await dispatchOutbox(t.ctx);
    let types = (await notices(u.token)).body.data.list.map((n) => n.type).sort();
    expect(types).toEqual(["quota.80", "quota.95"]);
    await charge(Math.ceil(q * 0.05));
    await charge(1000);
    await dispatchOutbox(t.ctx);
    types = (await notices(u.token)).body.data.list.map((n) => n.type).sort();
    expect(types).toEqual(["quota.100", "quota.80", "quota.95"]);
  });

  it("a queue left waiting a day tells the Managers, once per stretch", async () => {
    const admin = await t.adminToken();
    const u = await t.register();
    await openTicket(u.token, "没人回复的工单");
    const waiting = async () =>
      (await notices(admin)).body.data.list.filter((n) => n.type === "queue.waiting" && n.title.includes("待回复工单"));
    const before = (await waiting()).length;
    const start = new Date();
    await watchQueues(t.ctx, start);
    expect(await watchQueues(t.ctx, new Date(start.getTime() + 3_600_000))).toBe(0);
    await watchQueues(t.ctx, new Date(start.getTime() + 25 * 3_600_000));
    expect(await watchQueues(t.ctx, new Date(start.getTime() + 26 * 3_600_000))).toBe(0);
    await dispatchOutbox(t.ctx);
    const told = await waiting();
    expect(told.length - before).toBe(1);
    expect(told[0].link).toBe("/admin/mgr/ticket");
  });

  it("a maintenance window tells each customer it lists; a failed automatic renewal is urgent", async () => {
    const [a, b] = [await t.register(), await t.register()];
    const starts = new Date(Date.now() + DAY_MS).toISOString();
    const ends = new Date(Date.now() + DAY_MS + 3_600_000).toISOString();
    await transact(t.ctx, (trx) =>
      recordEvent(trx, "node.maintenance", {
        maintenance_id: 1,
        action: "announced",
        title: "机房升级",
        starts_at: starts,
        ends_at: ends,
        node_ids: [1],
        uids: [a.uid, b.uid, a.uid],
      }),
    );
    await transact(t.ctx, (trx) =>
      recordEvent(trx, "subscription.renewal_failed", {
        uid: a.uid,
        subscription_id: 1,
        plan_name: "专业版",
        period_end: ends,
        amount: 1500,
        balance: 100,
        message: "余额不足，自动续费失败",
      }),
    );
    await dispatchOutbox(t.ctx);
    const titles = async (token: string) => (await notices(token)).body.data.list.map((n) => n.title);
    expect(await titles(a.token)).toEqual(["套餐「专业版」自动续费失败", "节点维护通知：机房升级"]);
    expect(await titles(b.token)).toEqual(["节点维护通知：机房升级"]);
    const s = (await t.api<NoticeSettings>("GET", "/user/notice/settings", { token: a.token })).body.data;
    expect(s.events.find((e) => e.type === "subscription.renewal_failed")?.allowed).toContain("sms");
  });

  it("refused payment notifications: the fifth in an hour tells the Managers, once", async () => {
    const admin = await t.adminToken();
    const failing = async () =>
      (await notices(admin)).body.data.list.filter((n) => n.type === "payment.failing").length;
    const before = await failing();
    for (let i = 0; i < 6; i++) {
      const r = await t.app.inject({ method: "GET", url: "/api/pay/epay/notify?out_trade_no=1&sign=bad" });
      expect(r.body).not.toBe("success");
    }
    await dispatchOutbox(t.ctx);
    expect((await failing()) - before).toBe(1);
  });
});
