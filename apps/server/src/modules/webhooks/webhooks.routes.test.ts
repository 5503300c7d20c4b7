import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  type CreatedWebhook,
  ErrorCode,
  MAX_WEBHOOK_ENDPOINTS,
  type Paged,
  type WebhookDeliveryView,
  type WebhookView,
} from "@burrow/contract";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/harness";
import { giveBalance, makePlan } from "../../../test/store-fixtures";
import { recordEvent } from "../../shared/outbox";
import { dispatchOutbox } from "../../shared/outbox-dispatch";
import { direct } from "../../shared/tx";
import { deliverWebhooks, WEBHOOK_LIMITS } from "./delivery";

/** A real HTTP receiver on 127.0.0.1: records every request and answers what the test says. */
interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
let received: Received[] = [];
let answer: (req: Received, res: http.ServerResponse) => void = (_req, res) => res.end("ok");
let receiver: http.Server;
let base = "";

let t: TestApp;
beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const r = { path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      received.push(r);
      answer(r, res);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // The loopback receiver is reachable only through the explicit flag (docs/webhooks.md).
  t = await createTestApp({ WEBHOOK_ALLOW_LOOPBACK: "1" });
});
afterAll(async () => {
  await t.close();
  await new Promise((r) => receiver.close(r));
});
beforeEach(() => {
  received = [];
  answer = (_req, res) => res.end("ok");
});

async function addHook(token: string, body: Record<string, unknown>): Promise<CreatedWebhook> {
  const r = await t.api<CreatedWebhook>("POST", "/user/webhook", {
    token,
    body: { url: `${base}/hook`, events: ["order.paid"], ...body },
  });
  if (r.body.code !== "SUCCESS") throw new Error(`add failed: ${JSON.stringify(r.body)}`);
  return r.body.data;
}

const deliveries = async (token: string, id: number) =>
  (await t.api<Paged<WebhookDeliveryView>>("GET", `/user/webhook/${id}/deliveries`, { token, query: { size: 100 } }))
    .body.data.list;
const hookOf = async (token: string, id: number) =>
  (await t.api<WebhookView[]>("GET", "/user/webhook", { token })).body.data.find((h) => h.id === id)!;

/** Records an order.paid for `uid` as its owner would (the event's shape; the handler reads the outbox). */
const paid = (uid: number, orderId: number) =>
  recordEvent(direct(t.ctx), "order.paid", {
    order_id: orderId,
    trade_id: `T${orderId}`,
    uid,
    type: 2,
    name: "测试套餐",
    amount: 1000,
  } as never);

const sign = (secret: string, ts: string, body: string) =>
  `v1=${createHmac("sha256", secret).update(`${ts}.${body}`).digest("hex")}`;

describe("endpoints", () => {
  it("adds one with its secret shown once and sealed at rest; lists without it; bounds the count", async () => {
    const u = await t.register();
    const hook = await addHook(u.token, { description: "生产", events: ["order.paid", "tunnel.offline"] });
    expect(hook).toMatchObject({ url: `${base}/hook`, status: "active", events: ["order.paid", "tunnel.offline"] });
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const listed = (await t.api<WebhookView[]>("GET", "/user/webhook", { token: u.token })).body.data;
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(hook.secret);
    const stored = await t.db
      .selectFrom("webhook_endpoints")
      .select("secret")
      .where("id", "=", hook.id)
      .executeTakeFirstOrThrow();
    expect(stored.secret).not.toContain(hook.secret.slice(6));

    for (let i = 1; i < MAX_WEBHOOK_ENDPOINTS; i++) await addHook(u.token, {});
    const over = await t.api("POST", "/user/webhook", {
      token: u.token,
      body: { url: `${base}/x`, events: ["order.paid"] },
    });
    expect(over.status).toBe(403);
    expect(await t.db.selectFrom("webhook_endpoints").select("id").where("uid", "=", u.uid).execute()).toHaveLength(
      MAX_WEBHOOK_ENDPOINTS,
    );
  });

  it("refuses bad input naming the field, changing nothing", async () => {
    const u = await t.register();
    for (const [body, field] of [
      [{ url: "ftp://example.com/x", events: ["order.paid"] }, "url"],
      [{ url: "https://user:pw@example.com/x", events: ["order.paid"] }, "url"],
      [{ url: "https://example.com/x", events: [] }, "events"],
      [{ url: "https://example.com/x", events: ["nope"] }, "events"],
      // Literal internal addresses are refused when added (names are checked at send time).
      [{ url: "https://169.254.169.254/latest/meta-data", events: ["order.paid"] }, "url"],
      [{ url: "https://10.1.2.3/x", events: ["order.paid"] }, "url"],
      [{ url: "http://[::ffff:127.0.0.1]/x", events: ["order.paid"] }, "url"],
      [{ url: "https://[fd00::1]/x", events: ["order.paid"] }, "url"],
    ] as const) {
      const r = await t.api("POST", "/user/webhook", { token: u.token, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.code).toBe(ErrorCode.InvalidParams);
      expect(r.body.msg).toContain(field);
    }
    expect(await t.db.selectFrom("webhook_endpoints").select("id").where("uid", "=", u.uid).execute()).toEqual([]);
  });

  it("another customer's endpoint is not found, whatever the call", async () => {
    const a = await t.register();
    const b = await t.register();
    const hook = await addHook(a.token, {});
    await t.api("POST", `/user/webhook/${hook.id}/test`, { token: a.token });
    const [d] = await deliveries(a.token, hook.id);
    received = [];
    for (const [method, url, body] of [
      ["GET", `/user/webhook/${hook.id}/deliveries`, undefined],
      ["PATCH", `/user/webhook/${hook.id}`, { enabled: false }],
      ["POST", `/user/webhook/${hook.id}/test`, undefined],
      ["POST", `/user/webhook/${hook.id}/deliveries/${d.id}/redeliver`, undefined],
      ["DELETE", `/user/webhook/${hook.id}`, undefined],
    ] as const) {
      const r = await t.api(method, url, { token: b.token, body });
      expect(r.status, `${method} ${url}`).toBe(404);
    }
    expect(received).toEqual([]);
    expect((await hookOf(a.token, hook.id)).status).toBe("active");
    expect((await t.api<WebhookView[]>("GET", "/user/webhook", { token: b.token })).body.data).toEqual([]);
  });

  it("an API token cannot manage webhooks (console sessions only)", async () => {
    const u = await t.register();
    const tok = await t.api<{ token: string }>("POST", "/user/apiToken", {
      token: u.token,
      body: { name: "ci", scopes: ["account:read", "tunnels:read"] },
    });
    const r = await t.api("POST", "/user/webhook", {
      token: tok.body.data.token,
      body: { url: `${base}/hook`, events: ["order.paid"] },
    });
    expect(r.status).toBe(403);
    expect((await t.api("GET", "/user/webhook", { token: tok.body.data.token })).status).toBe(403);
  });
});

describe("delivery", () => {
  it("posts a subscribed event once, signed over timestamp and body", async () => {
    const u = await t.register();
    const hook = await addHook(u.token, {});
    const other = await addHook(u.token, { url: `${base}/other`, events: ["tunnel.offline"] });
    const eventId = await paid(u.uid, 1);
    await dispatchOutbox(t.ctx);
    // At least once upstream: a second run of the handler queues nothing more.
    await t.db.updateTable("outbox_deliveries").set({ status: "pending" }).where("event_id", "=", eventId!).execute();
    await dispatchOutbox(t.ctx);
    expect(await deliverWebhooks(t.ctx)).toEqual({ sent: 1, failed: 0 });

    expect(received).toHaveLength(1);
    const [r] = received;
    expect(r.path).toBe("/hook");
    const body = JSON.parse(r.body);
    expect(body).toEqual({
      id: `evt_${eventId}`,
      type: "order.paid",
      created_at: expect.any(String),
      data: expect.objectContaining({ order_id: 1, uid: u.uid, amount: 1000 }),
    });
    expect(r.headers["content-type"]).toBe("application/json");
    expect(r.headers["x-burrow-event"]).toBe("order.paid");
    const ts = String(r.headers["x-burrow-timestamp"]);
    expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(60);
    expect(r.headers["x-burrow-signature"]).toBe(sign(hook.secret, ts, r.body));
    expect(r.headers["x-burrow-signature"]).not.toBe(sign(other.secret, ts, r.body));

    const [d] = await deliveries(u.token, hook.id);
    expect(r.headers["x-burrow-delivery"]).toBe(String(d.id));
    expect(d).toMatchObject({
      status: "success",
      attempts: 1,
      response_code: 200,
      response_excerpt: "ok",
      error: null,
    });
    expect(await deliveries(u.token, other.id)).toEqual([]);
    expect(await deliverWebhooks(t.ctx)).toEqual({ sent: 0, failed: 0 });
  });

  it("retries a 500 with backoff (1 min doubling), then gives up after the last attempt", async () => {
    const u = await t.register();
    const hook = await addHook(u.token, {});
    answer = (_req, res) => {
      res.statusCode = 500;
      res.end("x".repeat(5000));
    };
    await paid(u.uid, 2);
    await dispatchOutbox(t.ctx);
    const t0 = Date.now();
    const at = (ms: number) => () => new Date(t0 + ms);
    expect(await deliverWebhooks(t.ctx, { now: at(0) })).toEqual({ sent: 0, failed: 1 });
    let [d] = await deliveries(u.token, hook.id);
    expect(d).toMatchObject({ status: "pending", attempts: 1, response_code: 500, error: "HTTP 500" });
    expect(d.response_excerpt?.length).toBe(WEBHOOK_LIMITS.excerptBytes);
    expect(Date.parse(d.next_at!) - t0).toBe(60_000);

    // Not before it is due; then 1, 2, 4 … minutes apart.
    let clock = 0;
    for (let attempt = 2; attempt <= WEBHOOK_LIMITS.maxAttempts; attempt++) {
      const delay = 60_000 * 2 ** (attempt - 2);
      expect(await deliverWebhooks(t.ctx, { now: at(clock + delay - 1000) })).toEqual({ sent: 0, failed: 0 });
      clock += delay;
      expect(await deliverWebhooks(t.ctx, { now: at(clock) })).toEqual({ sent: 0, failed: 1 });
    }
    [d] = await deliveries(u.token, hook.id);
    expect(d).toMatchObject({ status: "failed", attempts: WEBHOOK_LIMITS.maxAttempts, next_at: null });
    expect(received).toHaveLength(WEBHOOK_LIMITS.maxAttempts);
    expect(await deliverWebhooks(t.ctx, { now: at(clock + 86_400_000) })).toEqual({ sent: 0, failed: 0 });
  });

  it("pauses the endpoint after 20 failures in a row; nothing goes out until it is resumed", async () => {
    const u = await t.register();
    const hook = await addHook(u.token, {});
    answer = (_req, res) => {
      res.statusCode = 503;
      res.end();
    };
    for (let i = 0; i < WEBHOOK_LIMITS.pauseAfterFailures + 3; i++) await paid(u.uid, 100 + i);
    await dispatchOutbox(t.ctx);
    await deliverWebhooks(t.ctx);
    expect(received).toHaveLength(WEBHOOK_LIMITS.pauseAfterFailures);
    const h = await hookOf(u.token, hook.id);
    expect(h).toMatchObject({ status: "paused", paused_reason: "failures", failure_streak: 20 });
    expect(h.pending).toBe(WEBHOOK_LIMITS.pauseAfterFailures + 3);
    // the customer is told once, in the notice centre
    await dispatchOutbox(t.ctx);
    await dispatchOutbox(t.ctx);
    const notices = await t.api<{ list: { type: string; title: string; body: string; link: string | null }[] }>(
      "GET",
      "/user/notice",
      { token: u.token },
    );
    const told = notices.body.data.list.filter((n) => n.type === "webhook.paused");
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ title: "Webhook 已暂停", link: "/account/webhooks" });
    expect(told[0].body).toContain("连续 20 次投递失败");

    received = [];
    expect(await deliverWebhooks(t.ctx, { now: () => new Date(Date.now() + 86_400_000) })).toEqual({
      sent: 0,
      failed: 0,
    });
    expect(received).toEqual([]);

    answer = (_req, res) => res.end("ok");
    const r = await t.api<WebhookView>("PATCH", `/user/webhook/${hook.id}`, {
      token: u.token,
      body: { enabled: true },
    });
    expect(r.body.data).toMatchObject({ status: "active", paused_reason: null, failure_streak: 0 });
    expect(await deliverWebhooks(t.ctx)).toEqual({ sent: WEBHOOK_LIMITS.pauseAfterFailures + 3, failed: 0 });
    expect(await hookOf(u.token, hook.id)).toMatchObject({ pending: 0, failure_streak: 0 });
  });

  it("pauses after failures in a row spanning a day, even under 20", async () => {
    const u = await t.register();
    const hook = await addHook(u.token, {});
    answer = (_req, res) => {
      res.statusCode = 500;
      res.end();
    };
    await paid(u.uid, 200);
    await dispatchOutbox(t.ctx);
    const t0 = Date.now();
    await deliverWebhooks(t.ctx, { now: () => new Date(t0) });
    expect(await hookOf(u.token, hook.id)).toMatchObject({ status: "active", failure_streak: 1 });
    // Its retry, a day later (as if the endpoint had failed all day): the second failure pauses it.
    await deliverWebhooks(t.ctx, { now: () => new Date(t0 + WEBHOOK_LIMITS.pauseAfterMs) });
    expect(await hookOf(u.token, hook.id)).toMatchObject({
      status: "paused",
      paused_reason: "failures",
      failure_streak: 2,
    });
  });

  it("bounds the queue per endpoint: past it a new event is logged as not sent", async () => {
    const u = await t.register();
    const hook = await addHook(u.token, {});
    await t.api("PATCH", `/user/webhook/${hook.id}`, { token: u.token, body: { enabled: false } });
    const bound = WEBHOOK_LIMITS.maxPending;
    WEBHOOK_LIMITS.maxPending = 2;
    try {
      for (let i = 0; i < 3; i++) await paid(u.uid, 500 + i);
      await dispatchOutbox(t.ctx);
    } finally {
      WEBHOOK_LIMITS.maxPending = bound;
    }
    const log = await deliveries(u.token, hook.id);
    expect(log.map((d) => d.status)).toEqual(["dropped", "pending", "pending"]);
    expect(log[0].error).toContain("队列已满");
    expect(await hookOf(u.token, hook.id)).toMatchObject({ pending: 2 });
  });

  it("queues the owner's real event: a plan bought with the balance posts order.paid", async () => {
    const u = await t.register();
    const hook = await addHook(u.token, {});
    const plan = await makePlan(t);
    await giveBalance(t, u.uid, 100_000);
    const order = await t.api<{ trade_id: string }>("POST", "/user/order", {
      token: u.token,
      body: { type: 2, plan_id: plan.id, period: "monthly", pay_method: 1 },
    });
    expect(order.body.code).toBe("SUCCESS");
    await dispatchOutbox(t.ctx);
    await deliverWebhooks(t.ctx);
    const bodies = received.map((r) => JSON.parse(r.body));
    expect(bodies).toEqual([
      expect.objectContaining({
        type: "order.paid",
        data: expect.objectContaining({ trade_id: order.body.data.trade_id }),
      }),
    ]);
    expect((await deliveries(u.token, hook.id))[0]).toMatchObject({ status: "success" });
  });

  it("a customer's pause holds deliveries too", async () => {
    const u = await t.register();
    const hook = await addHook(u.token, {});
    await t.api("PATCH", `/user/webhook/${hook.id}`, { token: u.token, body: { enabled: false } });
    await paid(u.uid, 300);
    await dispatchOutbox(t.ctx);
    expect(await deliverWebhooks(t.ctx)).toEqual({ sent: 0, failed: 0 });
    expect(await hookOf(u.token, hook.id)).toMatchObject({ status: "paused", paused_reason: "manual", pending: 1 });
  });

  it("redelivers one logged delivery: the same event id, a new delivery and signature", async () => {
    const u = await t.register();
    const hook = await addHook(u.token, {});
    answer = (_req, res) => {
      res.statusCode = 500;
      res.end("down");
    };
    const eventId = await paid(u.uid, 400);
    await dispatchOutbox(t.ctx);
    await deliverWebhooks(t.ctx);
    const [first] = await deliveries(u.token, hook.id);
    answer = (_req, res) => res.end("thanks");
    received = [];
    const r = await t.api<WebhookDeliveryView>("POST", `/user/webhook/${hook.id}/deliveries/${first.id}/redeliver`, {
      token: u.token,
    });
    expect(r.body.data).toMatchObject({
      event_id: `evt_${eventId}`,
      status: "success",
      response_code: 200,
      response_excerpt: "thanks",
      redelivery_of: first.id,
    });
    expect(r.body.data.id).not.toBe(first.id);
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0].body).id).toBe(`evt_${eventId}`);
    expect(received[0].headers["x-burrow-delivery"]).toBe(String(r.body.data.id));
    const ts = String(received[0].headers["x-burrow-timestamp"]);
    expect(received[0].headers["x-burrow-signature"]).toBe(sign(hook.secret, ts, received[0].body));
    expect(
      (await t.api("POST", `/user/webhook/${hook.id}/deliveries/999999/redeliver`, { token: u.token })).status,
    ).toBe(404);
  });

  it("a test send goes out now, signed, and is logged", async () => {
    const u = await t.register();
    const hook = await addHook(u.token, {});
    const r = await t.api<WebhookDeliveryView>("POST", `/user/webhook/${hook.id}/test`, { token: u.token });
    expect(r.body.data).toMatchObject({
      event_type: "webhook.test",
      status: "success",
      attempts: 1,
      response_code: 200,
    });
    expect(received).toHaveLength(1);
    const ts = String(received[0].headers["x-burrow-timestamp"]);
    expect(received[0].headers["x-burrow-signature"]).toBe(sign(hook.secret, ts, received[0].body));
    expect(JSON.parse(received[0].body)).toMatchObject({ id: r.body.data.event_id, type: "webhook.test" });
    expect((await deliveries(u.token, hook.id)).map((d) => d.id)).toEqual([r.body.data.id]);
  });
});

describe("addresses (SSRF)", () => {
  it("never follows a redirect", async () => {
    const u = await t.register();
    const hook = await addHook(u.token, {});
    answer = (req, res) => {
      if (req.path === "/hook") {
        res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data" });
        res.end();
      } else res.end("followed");
    };
    const r = await t.api<WebhookDeliveryView>("POST", `/user/webhook/${hook.id}/test`, { token: u.token });
    expect(r.body.data).toMatchObject({ status: "failed", response_code: 302 });
    expect(r.body.data.error).toContain("重定向");
    expect(received.map((x) => x.path)).toEqual(["/hook"]);
  });

  it("checks a literal address again at send time (IPv4-mapped IPv6 loopback, metadata)", async () => {
    const u = await t.register();
    const hook = await addHook(u.token, {});
    const port = new URL(base).port;
    for (const url of [`http://[::ffff:127.0.0.1]:${port}/hook`, `http://169.254.169.254:${port}/hook`]) {
      // As if the row predated a rule: the send refuses it anyway.
      await t.db.updateTable("webhook_endpoints").set({ url }).where("id", "=", hook.id).execute();
      const r = await t.api<WebhookDeliveryView>("POST", `/user/webhook/${hook.id}/test`, { token: u.token });
      expect(r.body.data, url).toMatchObject({ status: "failed", response_code: null });
      expect(r.body.data.error).toContain("已拒绝");
    }
    expect(received).toEqual([]);
  });

  describe("without WEBHOOK_ALLOW_LOOPBACK", () => {
    let prod: TestApp;
    beforeAll(async () => {
      prod = await createTestApp();
    });
    afterAll(() => prod.close());

    it("refuses the loopback: http and literal addresses when added, a name resolving to it when sent", async () => {
      const u = await prod.register();
      const port = new URL(base).port;
      for (const url of [`${base}/hook`, `https://127.0.0.1:${port}/hook`, `https://[::1]:${port}/hook`]) {
        const r = await prod.api("POST", "/user/webhook", { token: u.token, body: { url, events: ["order.paid"] } });
        expect(r.status, url).toBe(400);
        expect(r.body.msg).toContain("url");
      }
      // A name is resolved when the post is made: localhost's addresses are refused then.
      const added = await prod.api<CreatedWebhook>("POST", "/user/webhook", {
        token: u.token,
        body: { url: `https://localhost:${port}/hook`, events: ["order.paid"] },
      });
      expect(added.body.code).toBe("SUCCESS");
      const r = await prod.api<WebhookDeliveryView>("POST", `/user/webhook/${added.body.data.id}/test`, {
        token: u.token,
      });
      expect(r.body.data).toMatchObject({ status: "failed", response_code: null });
      expect(r.body.data.error).toContain("已拒绝");
      expect(received).toEqual([]);
    });
  });
});
