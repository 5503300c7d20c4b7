import { createHash, randomBytes } from "node:crypto";
import net from "node:net";
import {
  type CreatedWebhook,
  type CreateWebhookBody,
  MAX_WEBHOOK_ENDPOINTS,
  type UpdateWebhookBody,
  type WebhookEventType,
  WebhookEventTypes,
  type WebhookView,
} from "@burrow/contract";
import type { Selectable } from "kysely";
import type { AppContext } from "../../context";
import { invalid, notFound, refused } from "../../shared/errors";
import { lockUser } from "../../shared/locks";
import { openText, sealText, secretKey } from "../../shared/secret-box";
import { nowIso } from "../../shared/time";
import { transact } from "../../shared/tx";
import { addressRefusal, hostOf } from "./guarded-post";
import type { WebhookEndpointTable } from "./webhooks.table";

export type EndpointRow = Selectable<WebhookEndpointTable>;

/** What every signing secret starts with (so that one found in a log is recognised). */
const SECRET_PREFIX = "whsec_";

/** The AES key of the signing secrets: WEBHOOK_SECRET_KEY (as MFA_SECRET_KEY in auth/mfa.ts). */
const key = (ctx: AppContext) =>
  secretKey(ctx, {
    env: ctx.config.WEBHOOK_SECRET_KEY,
    setting: "webhook_secret_key",
    derive: (secret) => createHash("sha256").update(`burrow-webhooks:${secret}`).digest(),
    missing: "Webhook 未启用：服务器未配置 WEBHOOK_SECRET_KEY",
  });
/** Binds a sealed secret to its owner: a copied column does not open under another account. */
const aad = (uid: number) => `webhook:${uid}`;

/** The endpoint's signing secret in clear (for a post). */
export async function endpointSecret(ctx: AppContext, row: Pick<EndpointRow, "uid" | "secret">): Promise<string> {
  return openText(await key(ctx), row.secret, aad(row.uid));
}

export const eventsOf = (stored: string): WebhookEventType[] =>
  stored.split(",").filter((e): e is WebhookEventType => (WebhookEventTypes as readonly string[]).includes(e));

/**
 * The rules the contract cannot check: https unless the loopback flag is on, and no literal
 * private address. Names are resolved only at send time (guarded-post.ts), where the check that
 * matters runs (a name's addresses can change after it was added).
 */
function checkUrl(ctx: AppContext, raw: string): string {
  const url = new URL(raw);
  const allowLoopback = ctx.config.WEBHOOK_ALLOW_LOOPBACK;
  if (url.protocol !== "https:" && !allowLoopback) throw invalid("url", "地址须以 https:// 开头");
  const host = hostOf(url);
  if (net.isIP(host)) {
    const why = addressRefusal(host, allowLoopback);
    if (why) throw invalid("url", why);
  }
  return url.href;
}

function present(row: EndpointRow, pending: number): WebhookView {
  return {
    id: Number(row.id),
    url: row.url,
    description: row.description,
    events: eventsOf(row.events),
    status: row.status === "paused" ? "paused" : "active",
    paused_reason: row.status === "paused" ? (row.paused_reason === "failures" ? "failures" : "manual") : null,
    paused_at: row.paused_at,
    failure_streak: Number(row.failure_streak),
    pending,
    created_at: row.created_at,
  };
}

/** Pending deliveries per endpoint of `ids`. */
async function pendingCounts(ctx: AppContext, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const rows = await ctx.db
    .selectFrom("webhook_deliveries")
    .select(["endpoint_id", (eb) => eb.fn.countAll<number>().as("n")])
    .where("endpoint_id", "in", ids)
    .where("status", "=", "pending")
    .groupBy("endpoint_id")
    .execute();
  return new Map(rows.map((r) => [Number(r.endpoint_id), Number(r.n)]));
}

/** The customer's endpoint `id`. @throws 404 when it is not theirs (another's looks the same as none). */
export async function ownEndpoint(ctx: AppContext, uid: number, id: number): Promise<EndpointRow> {
  const row = await ctx.db
    .selectFrom("webhook_endpoints")
    .selectAll()
    .where("id", "=", id)
    .where("uid", "=", uid)
    .executeTakeFirst();
  if (!row) throw notFound("Webhook");
  return row;
}

async function view(ctx: AppContext, row: EndpointRow): Promise<WebhookView> {
  const pending = await pendingCounts(ctx, [Number(row.id)]);
  return present(row, pending.get(Number(row.id)) ?? 0);
}

export async function listWebhooks(ctx: AppContext, uid: number): Promise<WebhookView[]> {
  const rows = await ctx.db.selectFrom("webhook_endpoints").selectAll().where("uid", "=", uid).orderBy("id").execute();
  const pending = await pendingCounts(
    ctx,
    rows.map((r) => Number(r.id)),
  );
  return rows.map((r) => present(r, pending.get(Number(r.id)) ?? 0));
}

/** A new endpoint's row: active, not paused, no failures yet. */
export const newEndpointRow = (
  e: Pick<WebhookEndpointTable, "uid" | "url" | "description" | "events" | "secret">,
  at: string,
) => ({
  ...e,
  status: "active",
  paused_reason: null,
  paused_at: null,
  failure_streak: 0,
  first_failure_at: null,
  created_at: at,
  updated_at: at,
});

/**
 * Adds an endpoint: at most MAX_WEBHOOK_ENDPOINTS per customer, counted under the customer's lock
 * so that concurrent additions cannot pass the count together. The answer is the only time the
 * secret is seen.
 */
export async function createWebhook(ctx: AppContext, uid: number, body: CreateWebhookBody): Promise<CreatedWebhook> {
  const url = checkUrl(ctx, body.url);
  const secret = `${SECRET_PREFIX}${randomBytes(32).toString("base64url")}`;
  const sealed = sealText(await key(ctx), secret, aad(uid));
  const at = nowIso();
  const row = await transact(ctx, async (trx) => {
    await lockUser(trx, uid);
    const { n } = await trx
      .selectFrom("webhook_endpoints")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("uid", "=", uid)
      .executeTakeFirstOrThrow();
    if (Number(n) >= MAX_WEBHOOK_ENDPOINTS) throw refused(`最多添加 ${MAX_WEBHOOK_ENDPOINTS} 个 Webhook 地址`);
    return trx
      .insertInto("webhook_endpoints")
      .values(
        newEndpointRow({ uid, url, description: body.description, events: body.events.join(","), secret: sealed }, at),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  return { ...present(row, 0), secret };
}

/**
 * Changes an endpoint. `enabled: false` pauses it (deliveries queue up, bounded); `enabled: true`
 * resumes it: the failure count starts again and what queued meanwhile goes out at once.
 */
export async function updateWebhook(
  ctx: AppContext,
  uid: number,
  id: number,
  body: UpdateWebhookBody,
): Promise<WebhookView> {
  const row = await ownEndpoint(ctx, uid, id);
  const at = nowIso();
  const resume = body.enabled === true && row.status === "paused";
  const pause = body.enabled === false && row.status !== "paused";
  await ctx.db
    .updateTable("webhook_endpoints")
    .set({
      updated_at: at,
      ...(body.url !== undefined && { url: checkUrl(ctx, body.url) }),
      ...(body.description !== undefined && { description: body.description }),
      ...(body.events !== undefined && { events: body.events.join(",") }),
      ...(pause && { status: "paused", paused_reason: "manual", paused_at: at }),
      ...(resume && {
        status: "active",
        paused_reason: null,
        paused_at: null,
        failure_streak: 0,
        first_failure_at: null,
      }),
    })
    .where("id", "=", row.id)
    .execute();
  if (resume)
    await ctx.db
      .updateTable("webhook_deliveries")
      .set({ next_at: at })
      .where("endpoint_id", "=", row.id)
      .where("status", "=", "pending")
      .execute();
  return view(ctx, await ownEndpoint(ctx, uid, id));
}

/** Deletes an endpoint with its queue and log. */
export async function deleteWebhook(ctx: AppContext, uid: number, id: number): Promise<null> {
  const row = await ownEndpoint(ctx, uid, id);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom("webhook_deliveries").where("endpoint_id", "=", row.id).execute();
    await trx.deleteFrom("webhook_endpoints").where("id", "=", row.id).execute();
  });
  return null;
}
