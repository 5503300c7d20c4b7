import {
  type SslCertView,
  type SslChallenge,
  SslFileNames,
  type SslFilePart,
  type SslIssueBody,
  type SslOrderView,
  type SslOverview,
  type SslStep,
  type SslUploadBody,
} from "@burrow/contract";
import type { FastifyReply } from "fastify";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { invalid, localDuplicated, notFound, rateLimited, refused } from "../../shared/errors";
import { lockUser } from "../../shared/locks";
import { acme, acmeClient, acmeDirectory, acmeErrorText } from "./acme";
import { lookupTxt } from "./dns";
import { checkUpload } from "./pem";
import { openKey, SSL_SECRET_MISSING, sealKey, secretAvailable } from "./secret";
import type { SslCertificateRow, SslOrderRow } from "./ssl.table";

const DAY = 86_400_000;
/** ACME certificates are renewed this long before they expire. */
export const RENEW_BEFORE_DAYS = 30;
/** An issue waiting for its record this long fails (Let's Encrypt's orders live 7 days). */
const WAIT_LIMIT_MS = 7 * DAY;
/** Steps that end an issue. */
const ENDED: SslStep[] = ["issued", "failed", "cancelled"];
/** One advancer per issue for at most this long (a crashed one frees it after that). */
const LEASE_MS = 120_000;

const certPurpose = (uid: number, domain: string) => `cert:${uid}:${domain}`;
const orderPurpose = (uid: number, domain: string) => `order:${uid}:${domain}`;
const fmtDay = (iso: string) => iso.slice(0, 10);

function certView(r: SslCertificateRow, now: Date): SslCertView {
  return {
    id: r.id,
    domain: r.domain,
    source: r.source as SslCertView["source"],
    names: JSON.parse(r.names) as string[],
    issuer: r.issuer,
    has_chain: r.chain_pem !== "",
    not_before: r.not_before,
    not_after: r.not_after,
    days_left: Math.floor((new Date(r.not_after).getTime() - now.getTime()) / DAY),
    fingerprint: r.fingerprint,
    notice: r.notice,
    notice_at: r.notice_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** What the customer has to put in place for an issue. */
function recordOf(r: SslOrderRow): SslOrderView["record"] {
  if (!r.record_value) return null;
  return r.challenge === "dns-01"
    ? { name: `_acme-challenge.${r.domain}`, value: r.record_value }
    : { name: `http://${r.domain}/.well-known/acme-challenge/${r.token}`, value: r.record_value };
}

function orderView(r: SslOrderRow): SslOrderView {
  return {
    id: r.id,
    domain: r.domain,
    challenge: r.challenge as SslChallenge,
    step: r.step as SslStep,
    cert_id: r.cert_id,
    renewal: r.renewal === 1,
    record: ENDED.includes(r.step as SslStep) ? null : recordOf(r),
    message: r.message,
    history: JSON.parse(r.history) as SslOrderView["history"],
    checks: r.checks,
    next_check_at: r.next_check_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

function requireSecret(ctx: AppContext): void {
  if (!secretAvailable(ctx)) throw refused(SSL_SECRET_MISSING);
}

/**
 * The domains the customer holds now — verified, or flagged and still within the grace period —
 * as the domains module answers through the context (importing it would close a cycle through
 * tunnels, which asks this module for certificates).
 */
async function heldDomains(ctx: AppContext, uid: number): Promise<string[]> {
  const now = Date.now();
  return [...(await ctx.domains.usable(ctx.db, uid))].filter(([, d]) => d.untilMs > now).map(([name]) => name);
}

async function holds(ctx: AppContext, uid: number, domain: string): Promise<boolean> {
  return (await heldDomains(ctx, uid)).includes(domain);
}

async function requireVerified(ctx: AppContext, uid: number, domain: string): Promise<void> {
  if (!(await holds(ctx, uid, domain)))
    throw invalid("domain", `${domain} 不是你已验证的域名，请先在“域名”页添加并完成验证`);
}

export async function overview(ctx: AppContext, uid: number, now = new Date()): Promise<SslOverview> {
  const since = new Date(now.getTime() - 7 * DAY).toISOString();
  const [certs, orders, domains] = await Promise.all([
    ctx.db.selectFrom("ssl_certificates").selectAll().where("uid", "=", uid).orderBy("domain").execute(),
    ctx.db
      .selectFrom("ssl_orders")
      .selectAll()
      .where("uid", "=", uid)
      .where((eb) => eb.or([eb("step", "not in", ENDED), eb("updated_at", ">=", since)]))
      .orderBy("id", "desc")
      .limit(50)
      .execute(),
    heldDomains(ctx, uid),
  ]);
  return {
    certificates: certs.map((c) => certView(c, now)),
    orders: orders.map(orderView),
    domains: domains.sort(),
    acme: acmeDirectory(ctx),
  };
}

/**
 * Stores a checked certificate as the domain's one certificate (inserted, or replacing the old
 * one in place so that its id — and a renewal's notice trail — stays).
 */
async function storeCertificate(
  ctx: AppContext,
  uid: number,
  domain: string,
  source: "upload" | "acme",
  checked: ReturnType<typeof checkUpload>,
  notice: string | null,
  now: Date,
): Promise<SslCertificateRow> {
  const at = now.toISOString();
  const values = {
    source,
    cert_pem: checked.leafPem,
    chain_pem: checked.chainPem,
    key_enc: await sealKey(ctx, checked.keyPem, certPurpose(uid, domain)),
    names: JSON.stringify(checked.names),
    issuer: checked.issuer,
    fingerprint: checked.fingerprint,
    not_before: checked.notBefore,
    not_after: checked.notAfter,
    notice,
    notice_at: notice ? at : null,
    updated_at: at,
  };
  await ctx.db
    .insertInto("ssl_certificates")
    .values({ uid, domain, ...values, created_at: at })
    .onConflict((oc) => oc.columns(["uid", "domain"]).doUpdateSet(values))
    .execute();
  return ctx.db
    .selectFrom("ssl_certificates")
    .selectAll()
    .where("uid", "=", uid)
    .where("domain", "=", domain)
    .executeTakeFirstOrThrow();
}

export async function upload(
  ctx: AppContext,
  uid: number,
  body: SslUploadBody,
  now = new Date(),
): Promise<SslCertView> {
  requireSecret(ctx);
  await requireVerified(ctx, uid, body.domain);
  const checked = checkUpload({
    certificate: body.certificate,
    privateKey: body.private_key,
    domain: body.domain,
    now,
  });
  return certView(await storeCertificate(ctx, uid, body.domain, "upload", checked, null, now), now);
}

/** One of the customer's rows of an ssl table; another customer's is "not found", like a missing one. */
async function own<T extends "ssl_certificates" | "ssl_orders">(
  ctx: AppContext,
  table: T,
  uid: number,
  id: number,
): Promise<T extends "ssl_orders" ? SslOrderRow : SslCertificateRow> {
  const row = await ctx.db
    .selectFrom(table as "ssl_orders")
    .selectAll()
    .where("id", "=", id)
    .where("uid", "=", uid)
    .executeTakeFirst();
  if (!row) throw notFound(table === "ssl_orders" ? "签发记录" : "证书");
  return row as never;
}
const myCert = (ctx: AppContext, uid: number, id: number) => own(ctx, "ssl_certificates", uid, id);
const myOrder = (ctx: AppContext, uid: number, id: number) => own(ctx, "ssl_orders", uid, id);

export async function removeCertificate(ctx: AppContext, uid: number, id: number): Promise<void> {
  const row = await myCert(ctx, uid, id);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom("ssl_certificates").where("id", "=", row.id).execute();
    // A renewal in progress would bring it back: it ends with the certificate.
    await trx
      .updateTable("ssl_orders")
      .set({ step: "cancelled", message: "证书已删除", next_check_at: null, updated_at: new Date().toISOString() })
      .where("cert_id", "=", row.id)
      .where("step", "not in", ENDED)
      .execute();
  });
}

/** The PEM text of one part of a certificate (the key decrypted for its owner only). */
export async function certificateFile(ctx: AppContext, row: SslCertificateRow, part: SslFilePart): Promise<string> {
  if (part === "cert") return row.cert_pem;
  if (part === "chain") return row.chain_pem;
  if (part === "fullchain") return row.cert_pem + row.chain_pem;
  return openKey(ctx, row.key_enc, certPurpose(row.uid, row.domain));
}

export async function download(ctx: AppContext, uid: number, id: number, part: SslFilePart, reply: FastifyReply) {
  const row = await myCert(ctx, uid, id);
  if (part === "chain" && !row.chain_pem) throw refused("这张证书没有中间证书（证书链为空）");
  const text = await certificateFile(ctx, row, part);
  return reply
    .header("content-type", "application/x-pem-file; charset=utf-8")
    .header("content-disposition", `attachment; filename="${row.domain}-${SslFileNames[part]}"`)
    .header("cache-control", "private, no-store")
    .header("x-content-type-options", "nosniff")
    .send(text);
}

// ---------------------------------------------------------------------------------------------
// ACME issues

function historyWith(r: Pick<SslOrderRow, "history">, step: SslStep, at: string, message: string | null): string {
  const h = JSON.parse(r.history) as SslOrderView["history"];
  h.push({ step, at, message });
  return JSON.stringify(h);
}

/** ACME orders one customer may start in an hour (the CA limits orders per account: ours is shared). */
const ISSUES_PER_HOUR = 10;

/** The customer's unended issue for `domain`, if any. */
const openIssue = (db: Kysely<DB>, uid: number, domain: string) =>
  db
    .selectFrom("ssl_orders")
    .select("id")
    .where("uid", "=", uid)
    .where("domain", "=", domain)
    .where("step", "not in", ENDED)
    .executeTakeFirst();

const busyIssue = (domain: string) => localDuplicated(`${domain} 已有进行中的证书签发，请等待完成或先取消`, "domain");

/**
 * Creates the ACME order for `domain` and the row that tracks it (step `waiting`, or `finalizing`
 * when the CA still holds a valid authorization for the name). At most one unended issue per
 * domain: checked under the customer's lock, after the CA's order exists (an unused ACME order
 * just expires).
 */
async function createIssue(
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
  return orderView(await myOrder(ctx, uid, id));
}

export async function cancelIssue(ctx: AppContext, uid: number, id: number, now = new Date()): Promise<SslOrderView> {
  const row = await myOrder(ctx, uid, id);
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

/** Takes the issue for one advance; false when another advancer holds it or it has ended. */
async function claim(ctx: AppContext, id: number, now: Date): Promise<boolean> {
  const r = await ctx.db
    .updateTable("ssl_orders")
    .set({ lease_until: new Date(now.getTime() + LEASE_MS).toISOString() })
    .where("id", "=", id)
    .where("step", "not in", ENDED)
    .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<", now.toISOString())]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Seconds to the next DNS look-up: every 15 s for 5 minutes, then every minute, after an hour every 10 minutes. */
function nextPoll(checks: number, interval: number): number {
  if (checks < 20) return Math.max(interval, 15);
  if (checks < 80) return 60;
  return 600;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Advances one issue as far as it can go now (`manual`: the customer pressed "check"/"start").
 * waiting → (DNS-01: the TXT record is seen through the configured resolvers; HTTP-01: the
 * customer says the file is in place) the CA is asked to validate → validating → the CA says
 * valid → finalizing (a CSR for the order's own key) → issued (the certificate is stored as the
 * domain's certificate). Each run polls the CA a few times (it usually answers in seconds), then
 * leaves the rest to the next run. Errors end the issue as failed with the CA's reason.
 */
export async function advanceIssue(ctx: AppContext, id: number, opts: { manual?: boolean; now?: Date } = {}) {
  const now = opts.now ?? new Date();
  if (!(await claim(ctx, id, now))) return;
  let row = await ctx.db.selectFrom("ssl_orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const save = async (set: Partial<SslOrderRow>, step?: SslStep) => {
    const at = new Date().toISOString();
    const patch: Partial<SslOrderRow> = { ...set, updated_at: at };
    if (step && step !== row.step) {
      patch.step = step;
      patch.history = historyWith(row, step, at, set.message ?? null);
    }
    await ctx.db.updateTable("ssl_orders").set(patch).where("id", "=", id).execute();
    row = { ...row, ...patch };
  };
  try {
    if (!(await holds(ctx, row.uid, row.domain))) {
      await save({ message: `${row.domain} 已不是你已验证的域名，签发中止`, next_check_at: null }, "failed");
      return;
    }
    const client = await acmeClient(ctx, row.directory);
    if (row.step === "waiting") {
      if (now.getTime() - new Date(row.created_at).getTime() > WAIT_LIMIT_MS) {
        await save({ message: "7 天内未检测到验证记录，本次签发已失效，请重新申请", next_check_at: null }, "failed");
        return;
      }
      if (row.challenge === "dns-01") {
        const name = `_acme-challenge.${row.domain}`;
        const found = await lookupTxt(ctx, name);
        if (!found.values.includes(row.record_value)) {
          const seen =
            found.error ?? (found.values.length ? `查到的值：${found.values.join("、")}` : "没有查到任何 TXT 记录");
          await save({
            message: `尚未检测到正确的 TXT 记录 ${name}（${seen}），DNS 生效可能需要几分钟`,
            checks: row.checks + 1,
            next_check_at: new Date(
              now.getTime() + nextPoll(row.checks, ctx.config.SSL_CHECK_INTERVAL) * 1000,
            ).toISOString(),
          });
          return;
        }
      } else if (!opts.manual) {
        return;
      }
      await client.completeChallenge({ url: row.challenge_url } as Parameters<typeof client.completeChallenge>[0]);
      await save(
        { message: "记录已就绪，证书颁发机构正在验证", checks: row.checks + 1, next_check_at: now.toISOString() },
        "validating",
      );
    }
    if (row.step === "validating") {
      let authz: acme.Authorization | undefined;
      for (let i = 0; i < 5; i++) {
        [authz] = await client.getAuthorizations({ authorizations: [row.authz_url] } as acme.Order);
        if (authz.status !== "pending") break;
        await sleep(1000);
      }
      if (authz?.status === "valid") {
        await save({ message: "验证通过，正在签发证书", next_check_at: new Date().toISOString() }, "finalizing");
      } else if (authz?.status === "pending") {
        await save({ message: "证书颁发机构仍在验证", next_check_at: new Date(Date.now() + 10_000).toISOString() });
        return;
      } else {
        const failedCh = authz?.challenges.find((c) => c.url === row.challenge_url) as
          | { error?: { detail?: string } }
          | undefined;
        await save(
          {
            message: `证书颁发机构验证失败：${failedCh?.error?.detail ?? authz?.status ?? "未知原因"}`,
            next_check_at: null,
          },
          "failed",
        );
        return;
      }
    }
    if (row.step === "finalizing") {
      let order = await client.getOrder({ url: row.order_url } as acme.Order);
      const keyPem = await openKey(ctx, row.key_enc, orderPurpose(row.uid, row.domain));
      if (order.status === "ready") {
        const [, csr] = await acme.crypto.createCsr({ commonName: row.domain, altNames: [row.domain] }, keyPem);
        order = await client.finalizeOrder(order, csr);
      }
      for (let i = 0; i < 5 && order.status === "processing"; i++) {
        await sleep(1000);
        order = await client.getOrder({ url: row.order_url } as acme.Order);
      }
      if (order.status === "processing") {
        await save({ message: "证书颁发机构正在签发", next_check_at: new Date(Date.now() + 10_000).toISOString() });
        return;
      }
      if (order.status !== "valid") {
        await save({ message: `签发失败：订单状态为 ${order.status}`, next_check_at: null }, "failed");
        return;
      }
      const chain = await client.getCertificate(order);
      const checked = checkUpload({ certificate: chain, privateKey: keyPem, domain: row.domain, now: new Date() });
      const notice = row.renewal
        ? `已于 ${fmtDay(new Date().toISOString())} 自动续期，新证书到期时间 ${fmtDay(checked.notAfter)}；请重新下载证书，替换 frpc 使用的文件`
        : null;
      const cert = await storeCertificate(ctx, row.uid, row.domain, "acme", checked, notice, new Date());
      await save(
        { cert_id: cert.id, message: `证书已签发，到期时间 ${fmtDay(checked.notAfter)}`, next_check_at: null },
        "issued",
      );
    }
  } catch (err) {
    const reason = (err as { field?: string }).field ? (err as Error).message : acmeErrorText(err);
    ctx.log.warn({ err, order: id }, "ssl: ACME step failed");
    await save({ message: `签发失败：${reason}`, next_check_at: null }, "failed");
  } finally {
    await ctx.db.updateTable("ssl_orders").set({ lease_until: null }).where("id", "=", id).execute();
    if (row.renewal && row.cert_id && (row.step === "failed" || row.step === "waiting")) await renewalNotice(ctx, row);
  }
}

/** Tells the customer (on the certificate) what a renewal needs or why it failed. */
async function renewalNotice(ctx: AppContext, row: SslOrderRow): Promise<void> {
  if (!row.cert_id) return;
  const rec = recordOf(row);
  const notice =
    row.step === "failed"
      ? `自动续期失败：${row.message ?? "未知原因"}。请在证书到期前重新签发`
      : row.challenge === "dns-01"
        ? `证书即将到期，已开始自动续期：请把 TXT 记录 ${rec?.name} 的值改为 ${rec?.value}，生效后自动完成`
        : `证书即将到期，已开始自动续期：请在 ${rec?.name} 放置新的验证文件，然后在续期记录上点击“开始验证”`;
  await ctx.db
    .updateTable("ssl_certificates")
    .set({ notice, notice_at: new Date().toISOString() })
    .where("id", "=", row.cert_id)
    .execute();
}

export async function checkIssue(ctx: AppContext, uid: number, id: number): Promise<SslOrderView> {
  const row = await myOrder(ctx, uid, id);
  if (ENDED.includes(row.step as SslStep)) throw refused("这次签发已经结束");
  await advanceIssue(ctx, row.id, { manual: true });
  return getIssue(ctx, uid, id);
}

/** Job: advances every issue that is due (DNS-01 waiting for its record, validating, finalizing). */
export async function advanceDueIssues(ctx: AppContext, now = new Date()): Promise<number> {
  const due = await ctx.db
    .selectFrom("ssl_orders")
    .select("id")
    .where("step", "in", ["waiting", "validating", "finalizing"])
    .where("next_check_at", "<=", now.toISOString())
    .orderBy("next_check_at")
    .limit(50)
    .execute();
  for (const { id } of due) await advanceIssue(ctx, id, { now });
  return due.length;
}

/**
 * Job: starts the renewal of every ACME certificate expiring within RENEW_BEFORE_DAYS that has no
 * issue in progress, with the challenge its last issue used, and tells the customer on the
 * certificate (the record to update, or why it could not start). A certificate whose domain is no
 * longer verified is not renewed (the customer is told). At most one attempt a day per certificate.
 */
export async function renewDueCertificates(ctx: AppContext, now = new Date()): Promise<number> {
  if (!secretAvailable(ctx)) return 0;
  const dayAgo = new Date(now.getTime() - DAY).toISOString();
  const due = await ctx.db
    .selectFrom("ssl_certificates")
    .selectAll()
    .where("source", "=", "acme")
    .where("not_after", "<=", new Date(now.getTime() + RENEW_BEFORE_DAYS * DAY).toISOString())
    .where((eb) => eb.or([eb("notice_at", "is", null), eb("notice_at", "<", dayAgo)]))
    .limit(100)
    .execute();
  let started = 0;
  for (const cert of due) {
    const busy = await ctx.db
      .selectFrom("ssl_orders")
      .select("id")
      .where("uid", "=", cert.uid)
      .where("domain", "=", cert.domain)
      .where("step", "not in", ENDED)
      .executeTakeFirst();
    if (busy) continue;
    const tell = (notice: string) =>
      ctx.db
        .updateTable("ssl_certificates")
        .set({ notice, notice_at: now.toISOString() })
        .where("id", "=", cert.id)
        .execute();
    if (!(await holds(ctx, cert.uid, cert.domain))) {
      await tell(`证书将于 ${fmtDay(cert.not_after)} 到期，但域名已不再是已验证状态，无法自动续期`);
      continue;
    }
    const last = await ctx.db
      .selectFrom("ssl_orders")
      .select("challenge")
      .where("uid", "=", cert.uid)
      .where("domain", "=", cert.domain)
      .orderBy("id", "desc")
      .executeTakeFirst();
    try {
      const row = await createIssue(
        ctx,
        cert.uid,
        cert.domain,
        (last?.challenge as SslChallenge) ?? "dns-01",
        {
          certId: cert.id,
          renewal: true,
        },
        now,
      );
      started++;
      await renewalNotice(ctx, row);
      if (row.step !== "waiting") await advanceIssue(ctx, row.id, { now });
    } catch (err) {
      await tell(
        `证书将于 ${fmtDay(cert.not_after)} 到期，自动续期未能开始：${(err as Error).message}；明天将再次尝试`,
      );
    }
  }
  return started;
}

/**
 * For the tunnels module's frpc config: the first of `domains` (the customer's) that has a
 * certificate valid at `now`, or undefined. Only names, no key material, leave this module.
 */
export async function certificateForDomains(
  ctx: AppContext,
  uid: number,
  domains: string[],
  now = new Date(),
): Promise<{ domain: string; not_after: string } | undefined> {
  if (!domains.length) return undefined;
  const rows = await ctx.db
    .selectFrom("ssl_certificates")
    .select(["domain", "not_after"])
    .where("uid", "=", uid)
    .where("domain", "in", domains)
    .where("not_after", ">", now.toISOString())
    .execute();
  const found = domains.map((d) => rows.find((r) => r.domain === d)).find(Boolean);
  return found;
}
