import { isWildcard, type SslChallenge, type SslIssueBody, type SslOrderView, type SslStep } from "@burrow/contract";
import type { AppContext } from "../../context";
import { invalid, localDuplicated, rateLimited, refused } from "../../shared/errors";
import { lockUser } from "../../shared/locks";
import { acme, acmeClient, acmeDirectory, acmeErrorText } from "./acme";
import { advanceIssue, historyWith } from "./acme-steps";
import { orderPurpose, requireSecret, sealKey } from "./secret";
import { orderView } from "./ssl.presenter";
import { ENDED, myOrder, openIssue } from "./ssl.repository";
import { requireVerified } from "./ssl.service";
import type { SslOrderRow } from "./ssl.table";

/* A customer's ACME issues: started, looked at, checked now, cancelled (acme-steps.ts advances them). */

/** ACME orders one customer may start in an hour (the CA limits orders per account: ours is shared). */
const ISSUES_PER_HOUR = 10;

const busyIssue = (domain: string) => localDuplicated(`${domain} 已有进行中的证书签发，请等待完成或先取消`, "domain");

/**
 * Creates the ACME order for `domain` and the row that tracks it (step `waiting`, or `finalizing`
 * when the CA still holds a valid authorization for the name). At most one unended issue per
 * domain: checked under the customer's lock, after the CA's order exists (an unused ACME order
 * just expires).
 */
export async function createIssue(
  ctx: AppContext,
  uid: number,
  domain: string,
  challenge: SslChallenge,
  target: { certId: number | null; renewal: boolean },
  now: Date,
): Promise<SslOrderRow> {
  const { directory } = acmeDirectory(ctx);
  let order: acme.Order;
  let authz: acme.Authorization;
  let ch: { url: string; token: string } | undefined;
  let keyAuthorization = "";
  const client = await acmeClient(ctx, directory);
  try {
    order = await client.createOrder({ identifiers: [{ type: "dns", value: domain }] });
    [authz] = await client.getAuthorizations(order);
    if (authz.status !== "valid") {
      ch = authz.challenges.find((c) => c.type === challenge);
      if (!ch) throw new Error(`证书颁发机构不提供 ${challenge} 验证方式`);
      keyAuthorization = await client.getChallengeKeyAuthorization(
        ch as Parameters<typeof client.getChallengeKeyAuthorization>[0],
      );
    }
  } catch (err) {
    throw refused(`向证书颁发机构创建订单失败：${acmeErrorText(err)}`);
  }
  const keyPem = (await acme.crypto.createPrivateEcdsaKey("P-256")).toString();
  const at = now.toISOString();
  const step: SslStep = ch ? "waiting" : "finalizing";
  const message = ch
    ? challenge === "dns-01"
      ? "请添加 TXT 记录，系统会自动检测，记录生效后继续"
      : "请在网站上放置验证文件，放好后点击“开始验证”"
    : "证书颁发机构已有该域名的有效验证，直接签发";
  return ctx.db.transaction().execute(async (trx) => {
    await lockUser(trx, uid);
    if (await openIssue(trx, uid, domain)) throw busyIssue(domain);
    const row = await trx
      .insertInto("ssl_orders")
      .values({
        uid,
        domain,
        cert_id: target.certId,
        renewal: target.renewal ? 1 : 0,
        challenge,
        step,
        message,
        history: JSON.stringify([{ step, at, message: null }]),
        directory,
        order_url: order.url,
        authz_url: authz.url,
        challenge_url: ch?.url ?? "",
        token: ch?.token ?? "",
        record_value: keyAuthorization,
        key_enc: await sealKey(ctx, keyPem, orderPurpose(uid, domain)),
        checks: 0,
        // DNS-01 is polled by the job; HTTP-01 waits for the customer's "start"; finalizing at once.
        next_check_at: step === "waiting" && challenge === "http-01" ? null : at,
        lease_until: null,
        created_at: at,
        updated_at: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return row;
  });
}

export async function startIssue(
  ctx: AppContext,
  uid: number,
  body: SslIssueBody,
  now = new Date(),
): Promise<SslOrderView> {
  requireSecret(ctx);
  await requireVerified(ctx, uid, body.domain);
  // The CA validates a wildcard only through DNS (RFC 8555 §7.1.3): no file can stand for every name.
  if (isWildcard(body.domain) && body.challenge !== "dns-01")
    throw invalid("challenge", `泛域名 ${body.domain} 的证书只能通过 DNS 验证（dns-01）签发`);
  // Every order is made on the one shared ACME account, whose CA limits orders per account: a
  // customer may start only a few an hour, and never a second while one for the name is open
  // (checked again under the lock once the CA's order exists).
  const limit = await ctx.limiter.hit(`ssl:order:${uid}`, ISSUES_PER_HOUR, 3600);
  if (!limit.allowed) throw rateLimited(limit.retryAfterSec);
  if (await openIssue(ctx.db, uid, body.domain)) throw busyIssue(body.domain);
  const existing = await ctx.db
    .selectFrom("ssl_certificates")
    .select("id")
    .where("uid", "=", uid)
    .where("domain", "=", body.domain)
    .executeTakeFirst();
  const row = await createIssue(
    ctx,
    uid,
    body.domain,
    body.challenge,
    { certId: existing?.id ?? null, renewal: false },
    now,
  );
  return orderView(row);
}

export async function getIssue(ctx: AppContext, uid: number, id: number): Promise<SslOrderView> {
  return orderView(await myOrder(ctx.db, uid, id));
}

export async function cancelIssue(ctx: AppContext, uid: number, id: number, now = new Date()): Promise<SslOrderView> {
  const row = await myOrder(ctx.db, uid, id);
  if (ENDED.includes(row.step as SslStep)) throw refused("这次签发已经结束，不能取消");
  const at = now.toISOString();
  await ctx.db
    .updateTable("ssl_orders")
    .set({
      step: "cancelled",
      message: "已取消",
      history: historyWith(row, "cancelled", at, null),
      next_check_at: null,
      updated_at: at,
    })
    .where("id", "=", row.id)
    .where("step", "not in", ENDED)
    .execute();
  return getIssue(ctx, uid, id);
}

export async function checkIssue(ctx: AppContext, uid: number, id: number): Promise<SslOrderView> {
  const row = await myOrder(ctx.db, uid, id);
  if (ENDED.includes(row.step as SslStep)) throw refused("这次签发已经结束");
  await advanceIssue(ctx, row.id, { manual: true });
  return getIssue(ctx, uid, id);
}
