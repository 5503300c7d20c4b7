import { createHmac, randomBytes } from "node:crypto";
import { type Paged, WEBHOOK_TEST_EVENT, type WebhookDeliveryView, WebhookEventTypes } from "@burrow/contract";
import type { ExpressionBuilder, Selectable } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { notFound, rateLimited } from "../../shared/errors";
import { defineEventHandler, recordEvent } from "../../shared/outbox";
import { pageOf } from "../../shared/paging";
import { transact } from "../../shared/tx";
import { guardedPost, type PostOutcome } from "./guarded-post";
import { type EndpointRow, endpointSecret, eventsOf, ownEndpoint } from "./webhooks.service";
import type { WebhookDeliveryTable } from "./webhooks.table";

/** docs/webhooks.md says these numbers. */
export const WEBHOOK_LIMITS = {
  /** attempts per delivery: the first, then retries after 1, 2, 4 … 64 minutes */
  maxAttempts: 8,
  backoffMs: 60_000,
  /** an endpoint is paused after this many failed attempts in a row … */
  pauseAfterFailures: 20,
  /** … or when its failures in a row span this long */
  pauseAfterMs: 86_400_000,
  /** deliveries waiting per endpoint; past it a new event's delivery is logged as dropped */
  maxPending: 500,
  timeoutMs: 10_000,
  /** bytes of the answer kept in the log */
  excerptBytes: 1024,
  /** a payload larger than this is logged as dropped, not sent */
  maxBodyBytes: 65_536,
  /** deliveries claimed per round, and posts in flight at once */
  batch: 20,
  concurrency: 4,
  /** rounds per pass, so one pass is bounded (the next tick does the rest) */
  rounds: 50,
  /** a claimed delivery stays with its worker this long (well over the timeout) */
  leaseMs: 60_000,
  /** log rows (not pending) are deleted after this many days */
  retentionDays: 30,
  /** test sends and redeliveries per customer per minute */
  manualPerMinute: 20,
};

type DeliveryRow = Selectable<WebhookDeliveryTable>;

/** `v1=` HMAC-SHA256 of `${timestamp}.${body}` under the endpoint's secret, hex. */
export const signature = (secret: string, timestamp: number, body: string): string =>
  `v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;

/** Delay before the attempt after `attempts` failed ones. */
export const retryDelayMs = (attempts: number): number => WEBHOOK_LIMITS.backoffMs * 2 ** Math.max(0, attempts - 1);

export function presentDelivery(r: DeliveryRow): WebhookDeliveryView {
  const status = r.status as WebhookDeliveryView["status"];
  return {
    id: Number(r.id),
    event_id: r.event_id,
    event_type: r.event_type,
    status,
    attempts: Number(r.attempts),
    response_code: r.response_code === null ? null : Number(r.response_code),
    response_excerpt: r.response_excerpt,
    error: r.error,
    duration_ms: r.duration_ms === null ? null : Number(r.duration_ms),
    next_at: status === "pending" ? r.next_at : null,
    last_attempt_at: r.last_attempt_at,
    created_at: r.created_at,
    redelivery_of: r.redelivery_of === null ? null : Number(r.redelivery_of),
  };
}

const bodyOf = (id: string, type: string, createdAt: string, data: unknown): string =>
  JSON.stringify({ id, type, created_at: createdAt, data });

/**
 * The outbox's reaction to a customer's event: one delivery per endpoint of theirs that subscribes
 * to its type, paused ones included (they go out on resume). Idempotent: the delivery's key is
 * (endpoint, event), so a second run of the handler inserts nothing.
 */
export const enqueueWebhooks = defineEventHandler({
  name: "webhooks.enqueue",
  types: WebhookEventTypes,
  async handle(ctx, event) {
    if (event.uid === null) return;
    const endpoints = await ctx.db
      .selectFrom("webhook_endpoints")
      .select(["id", "events"])
      .where("uid", "=", event.uid)
      .execute();
    const body = bodyOf(`evt_${event.id}`, event.type, event.created_at, event.payload);
    const at = new Date().toISOString();
    for (const ep of endpoints.filter((e) => eventsOf(e.events).includes(event.type))) {
      const { n } = await ctx.db
        .selectFrom("webhook_deliveries")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("endpoint_id", "=", ep.id)
        .where("status", "=", "pending")
        .executeTakeFirstOrThrow();
      // Bounded queue (docs/webhooks.md): a full one keeps what it holds and logs the newcomer as
      // dropped, so that the customer sees what was lost and can resend it.
      const full = Number(n) >= WEBHOOK_LIMITS.maxPending;
      const tooLarge = Buffer.byteLength(body) > WEBHOOK_LIMITS.maxBodyBytes;
      await ctx.db
        .insertInto("webhook_deliveries")
        .values({
          endpoint_id: ep.id,
          uid: event.uid,
          dedupe_key: `${ep.id}:${event.id}`,
          event_id: `evt_${event.id}`,
          event_type: event.type,
          body: tooLarge ? bodyOf(`evt_${event.id}`, event.type, event.created_at, null) : body,
          status: full || tooLarge ? "dropped" : "pending",
          attempts: 0,
          next_at: full || tooLarge ? null : at,
          error: full
            ? `待投递队列已满（${WEBHOOK_LIMITS.maxPending} 条），此事件未发送`
            : tooLarge
              ? "事件内容超过 64 KiB，未发送"
              : null,
          created_at: at,
        })
        .onConflict((oc) => oc.column("dedupe_key").doNothing())
        .execute();
    }
  },
});

/** Posts a delivery's body to the endpoint, signed now. */
async function post(ctx: AppContext, ep: EndpointRow, d: DeliveryRow, now: Date): Promise<PostOutcome> {
  const timestamp = Math.floor(now.getTime() / 1000);
  let secret: string;
  try {
    secret = await endpointSecret(ctx, ep);
  } catch (err) {
    ctx.log.error({ err, endpoint: ep.id }, "webhook secret does not open");
    return {
      status: null,
      excerpt: null,
      error: "签名密钥无法解密（服务器密钥已更换），请删除此地址并重新添加",
      durationMs: 0,
    };
  }
  return guardedPost(
    ep.url,
    {
      "content-type": "application/json",
      "user-agent": "Burrow-Webhooks/1",
      "x-burrow-event": d.event_type,
      "x-burrow-delivery": String(d.id),
      "x-burrow-timestamp": String(timestamp),
      "x-burrow-signature": signature(secret, timestamp, d.body),
    },
    d.body,
    {
      allowLoopback: ctx.config.WEBHOOK_ALLOW_LOOPBACK,
      timeoutMs: WEBHOOK_LIMITS.timeoutMs,
      excerptBytes: WEBHOOK_LIMITS.excerptBytes,
    },
  );
}

/** Writes an attempt's outcome on its delivery: success, a retry later, or failed for good. */
async function recordAttempt(
  ctx: AppContext,
  d: DeliveryRow,
  out: PostOutcome,
  now: Date,
  retries: boolean,
): Promise<DeliveryRow | undefined> {
  const attempts = Number(d.attempts) + 1;
  const ok = out.error === null;
  const retry = !ok && retries && attempts < WEBHOOK_LIMITS.maxAttempts;
  return (
    ctx.db
      .updateTable("webhook_deliveries")
      .set({
        attempts,
        status: ok ? "success" : retry ? "pending" : "failed",
        next_at: retry ? new Date(now.getTime() + retryDelayMs(attempts)).toISOString() : null,
        lease_until: null,
        response_code: out.status,
        response_excerpt: out.excerpt,
        error: out.error,
        duration_ms: out.durationMs,
        last_attempt_at: now.toISOString(),
      })
      .where("id", "=", d.id)
      .returningAll()
      // undefined: the endpoint was deleted meanwhile, with its log
      .executeTakeFirst()
  );
}

/**
 * The endpoint's health after a queued attempt: a success clears the failure streak; a failure
 * lengthens it, and pauses the endpoint once it reaches pauseAfterFailures or spans pauseAfterMs.
 */
async function recordHealth(ctx: AppContext, endpointId: number, ok: boolean, now: Date): Promise<void> {
  const at = now.toISOString();
  if (ok) {
    await ctx.db
      .updateTable("webhook_endpoints")
      .set({ failure_streak: 0, first_failure_at: null })
      .where("id", "=", endpointId)
      .execute();
    return;
  }
  const ep = await ctx.db
    .updateTable("webhook_endpoints")
    .set((eb) => ({
      failure_streak: eb("failure_streak", "+", 1),
      first_failure_at: eb.fn.coalesce("first_failure_at", eb.val(at)),
    }))
    .where("id", "=", endpointId)
    .returning(["failure_streak", "first_failure_at"])
    .executeTakeFirst();
  if (!ep) return;
  const since = Date.parse(ep.first_failure_at ?? at);
  if (
    Number(ep.failure_streak) >= WEBHOOK_LIMITS.pauseAfterFailures ||
    now.getTime() - since >= WEBHOOK_LIMITS.pauseAfterMs
  )
    // The customer is told (notices), once per pause: the event goes with the update that paused it.
    await transact(ctx, async (trx) => {
      const paused = await trx
        .updateTable("webhook_endpoints")
        .set({ status: "paused", paused_reason: "failures", paused_at: at, updated_at: at })
        .where("id", "=", endpointId)
        .where("status", "=", "active")
        .returning(["uid", "url", "failure_streak"])
        .executeTakeFirst();
      if (paused)
        await recordEvent(
          trx,
          "webhook.paused",
          { uid: paused.uid, endpoint_id: endpointId, url: paused.url, failures: Number(paused.failure_streak) },
          { key: `webhook.paused:${endpointId}:${at}` },
        );
    });
}

/**
 * Takes up to `batch` due deliveries of active endpoints until now + leaseMs: the ids first, then
 * one conditional UPDATE of those ids, so that two workers never both take a row (on PostgreSQL
 * the second re-checks the lease after the first commits and no longer matches). One statement
 * with a LIMIT subquery took more rows than the limit on PostgreSQL.
 */
async function claim(ctx: AppContext, now: Date): Promise<DeliveryRow[]> {
  const at = now.toISOString();
  const free = (eb: ExpressionBuilder<DB, "webhook_deliveries">) =>
    eb.or([eb("lease_until", "is", null), eb("lease_until", "<", at)]);
  const due = await ctx.db
    .selectFrom("webhook_deliveries")
    .select("id")
    .where("status", "=", "pending")
    .where("next_at", "<=", at)
    .where(free)
    .where("endpoint_id", "in", (eb) => eb.selectFrom("webhook_endpoints").select("id").where("status", "=", "active"))
    .orderBy("next_at")
    .orderBy("id")
    .limit(WEBHOOK_LIMITS.batch)
    .execute();
  if (!due.length) return [];
  return ctx.db
    .updateTable("webhook_deliveries")
    .set({ lease_until: new Date(now.getTime() + WEBHOOK_LIMITS.leaseMs).toISOString() })
    .where(
      "id",
      "in",
      due.map((d) => d.id),
    )
    .where("status", "=", "pending")
    .where(free)
    .returningAll()
    .execute();
}

/**
 * One pass of the worker: claims due deliveries and posts them, a few at a time, until none is
 * due. `now` is the tests' clock (retries come due by moving it).
 */
export async function deliverWebhooks(
  ctx: AppContext,
  opts: { now?: () => Date } = {},
): Promise<{ sent: number; failed: number }> {
  const clock = opts.now ?? (() => new Date());
  const out = { sent: 0, failed: 0 };
  for (let round = 0; round < WEBHOOK_LIMITS.rounds; round++) {
    const claimed = await claim(ctx, clock());
    if (!claimed.length) break;
    const endpoints = new Map(
      (
        await ctx.db
          .selectFrom("webhook_endpoints")
          .selectAll()
          .where("id", "in", [...new Set(claimed.map((d) => d.endpoint_id))])
          .execute()
      ).map((e) => [Number(e.id), e]),
    );
    const queue = [...claimed];
    const work = async () => {
      for (let d = queue.shift(); d; d = queue.shift()) {
        const ep = endpoints.get(Number(d.endpoint_id));
        if (!ep) continue;
        const res = await post(ctx, ep, d, clock());
        const at = clock();
        await recordAttempt(ctx, d, res, at, true);
        await recordHealth(ctx, Number(ep.id), res.error === null, at);
        if (res.error === null) out.sent++;
        else out.failed++;
      }
    };
    await Promise.all(Array.from({ length: WEBHOOK_LIMITS.concurrency }, work));
    if (claimed.length < WEBHOOK_LIMITS.batch) break;
  }
  return out;
}

/** Deletes log rows older than the retention (never a pending one). */
export async function pruneWebhookLog(ctx: AppContext, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - WEBHOOK_LIMITS.retentionDays * 86_400_000).toISOString();
  const r = await ctx.db
    .deleteFrom("webhook_deliveries")
    .where("status", "!=", "pending")
    .where("created_at", "<", cutoff)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** A send the customer asked for: now, once, answered with its log row; no retries, no effect on the streak. */
async function sendNow(
  ctx: AppContext,
  ep: EndpointRow,
  values: Pick<DeliveryRow, "event_id" | "event_type" | "body" | "redelivery_of">,
): Promise<WebhookDeliveryView> {
  const limit = await ctx.limiter.hit(`webhook:manual:${ep.uid}`, WEBHOOK_LIMITS.manualPerMinute, 60);
  if (!limit.allowed) throw rateLimited(limit.retryAfterSec);
  const now = new Date();
  const row = await ctx.db
    .insertInto("webhook_deliveries")
    .values({
      ...values,
      endpoint_id: ep.id,
      uid: ep.uid,
      dedupe_key: null,
      status: "pending",
      attempts: 0,
      // Leased to this request: the worker leaves it alone while it is being sent.
      next_at: now.toISOString(),
      lease_until: new Date(now.getTime() + WEBHOOK_LIMITS.leaseMs).toISOString(),
      created_at: now.toISOString(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const res = await post(ctx, ep, row, now);
  const done = await recordAttempt(ctx, row, res, new Date(), false);
  if (!done) throw notFound("Webhook");
  return presentDelivery(done);
}

/** POST /user/webhook/:id/test: a `webhook.test` event, sent now (paused endpoints too: that is how one checks a fix). */
export async function sendTest(ctx: AppContext, uid: number, id: number): Promise<WebhookDeliveryView> {
  const ep = await ownEndpoint(ctx, uid, id);
  const eventId = `evt_test_${randomBytes(8).toString("hex")}`;
  const data = { message: "这是一条测试消息：Webhook 已可接收 Burrow 的事件", endpoint_id: Number(ep.id) };
  return sendNow(ctx, ep, {
    event_id: eventId,
    event_type: WEBHOOK_TEST_EVENT,
    body: bodyOf(eventId, WEBHOOK_TEST_EVENT, new Date().toISOString(), data),
    redelivery_of: null,
  });
}

/** Sends a logged delivery's payload again (the same event id, a new delivery id and signature). */
export async function redeliver(ctx: AppContext, uid: number, id: number, did: number): Promise<WebhookDeliveryView> {
  const ep = await ownEndpoint(ctx, uid, id);
  const d = await ctx.db
    .selectFrom("webhook_deliveries")
    .selectAll()
    .where("id", "=", did)
    .where("endpoint_id", "=", ep.id)
    .executeTakeFirst();
  if (!d) throw notFound("投递记录");
  return sendNow(ctx, ep, {
    event_id: d.event_id,
    event_type: d.event_type,
    body: d.body,
    redelivery_of: Number(d.id),
  });
}

/** An endpoint's log, newest first. */
export async function listDeliveries(
  ctx: AppContext,
  uid: number,
  id: number,
  q: { page: number; size: number },
): Promise<Paged<WebhookDeliveryView>> {
  const ep = await ownEndpoint(ctx, uid, id);
  const base = ctx.db.selectFrom("webhook_deliveries").where("endpoint_id", "=", ep.id);
  return pageOf(
    q.page,
    q.size,
    async (limit, offset) =>
      (await base.selectAll().orderBy("id", "desc").limit(limit).offset(offset).execute()).map(presentDelivery),
    async () => (await base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n,
  );
}
