import { createHash } from "node:crypto";
import {
  type OidcBindingView,
  type OidcCallbackBody,
  type OidcCallbackResult,
  type OidcLinkBody,
  type OidcStartResult,
  Role,
  type TokenResult,
  UserStatus,
} from "@burrow/contract";
import type { Kysely } from "kysely";
import * as client from "openid-client";
import type { AppContext } from "../../context";
import { isUniqueViolation } from "../../db/errors";
import type { DB } from "../../db/schema";
import { localDuplicated, notFound, rateLimited, refused } from "../../shared/errors";
import { randomCode, randomToken } from "../../shared/ids";
import { lockUser } from "../../shared/locks";
import { clientKey } from "../../shared/rate-limit";
import { nowIso } from "../../shared/time";
import { direct, type Tx, transact } from "../../shared/tx";
import type { ClientMeta } from "../auth/auth.service";
import { refuseWithoutSecondFactor } from "../auth/challenge";
import { bannedError, issueSession } from "../auth/sessions";
import { consumeCode } from "../auth/sms";
import { grantDefaultPlan } from "../subscriptions/default-plan";
import { NO_PHONE_PREFIX } from "../users/users.presenter";
import { findUserByPhone, findUserByUid, insertUser, recordLogin } from "../users/users.repository";
import { enabledProvider, providerConfig } from "./providers";

/*
 * The authorization code flow with PKCE (docs/oidc.md). GET /auth/oidc/start (or POST
 * /user/oidc/bind) stores a flow keyed by the state's hash with the nonce and the PKCE verifier,
 * bound to this browser by an httpOnly cookie, and answers the provider's URL. The provider sends
 * the browser to PUBLIC_URL/callback/auth, whose page posts the answer to POST
 * /auth/oidc/callback: the flow is taken (single use, unexpired, same cookie) before the code is
 * exchanged, and openid-client checks state, PKCE, nonce, issuer and the ID token's signature.
 * The routes read and set the cookie; this file only sees its value.
 */

const FLOW_TTL_MS = 10 * 60 * 1000;
const PENDING_TTL_MS = 10 * 60 * 1000;
const STARTS_PER_IP = 30;

/** How long the browser's binding cookie must last: a flow, then the pending identity it may leave. */
export const BROWSER_COOKIE_MAX_AGE_S = Math.floor((FLOW_TTL_MS + PENDING_TTL_MS) / 1000);

/** The browser a flow step comes from: its address and its binding cookie's value, if it sent one. */
export interface FlowBrowser {
  ip: string;
  cookie: string | undefined;
}

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

/** The flow refused for any reason that should not tell an attacker which check failed. */
const staleFlow = () => refused("登录请求无效或已过期，请重新发起第三方登录");

/** What the provider's error codes mean to the customer (RFC 6749 §4.1.2.1, OIDC Core §3.1.2.6). */
export function providerErrorMessage(error: string): string {
  switch (error) {
    case "access_denied":
      return "你已取消授权，第三方登录未完成";
    case "login_required":
    case "interaction_required":
    case "consent_required":
    case "account_selection_required":
      return "请先在第三方完成登录和授权";
    case "temporarily_unavailable":
    case "server_error":
      return "第三方登录服务暂时不可用，请稍后再试";
    default:
      return `第三方登录失败（${error.replace(/[^\w.-]/g, "").slice(0, 40)}）`;
  }
}

/** PUBLIC_URL/callback/auth: the only redirect_uri Burrow ever sends (never built from a request). */
export function redirectUri(ctx: AppContext): string {
  if (!ctx.config.PUBLIC_URL) throw refused("站点未配置 PUBLIC_URL，暂不能使用第三方登录，请联系管理员");
  return `${ctx.config.PUBLIC_URL.replace(/\/+$/, "")}/callback/auth`;
}

/** The cookie's hash, or the refusal every flow step gives a browser without one. */
function browserHash(browser: FlowBrowser): string {
  if (!browser.cookie) throw staleFlow();
  return sha256(browser.cookie);
}

/**
 * Starts a sign-in (uid undefined) or a bind (uid of the signed-in customer). Answers the
 * provider's URL and the cookie value the browser must keep (its own when it sent one, so that two
 * tabs can each run a flow).
 */
export async function startFlow(
  ctx: AppContext,
  browser: FlowBrowser,
  providerId: number,
  uid?: number,
): Promise<{ result: OidcStartResult; cookie: string }> {
  const redirect_uri = redirectUri(ctx);
  const limit = await ctx.limiter.hit(`oidc:start:${clientKey(browser.ip)}`, STARTS_PER_IP, 600);
  if (!limit.allowed) throw rateLimited(limit.retryAfterSec);
  const provider = await enabledProvider(ctx, providerId);
  const config = await providerConfig(ctx, provider);
  const state = client.randomState();
  const nonce = client.randomNonce();
  const codeVerifier = client.randomPKCECodeVerifier();
  const cookie = browser.cookie ?? randomToken(32);
  const now = Date.now();
  await ctx.db
    .deleteFrom("oidc_flows")
    .where("expires_at", "<", new Date(now - 3600_000).toISOString())
    .execute();
  await ctx.db
    .deleteFrom("oidc_pending")
    .where("expires_at", "<", new Date(now - 3600_000).toISOString())
    .execute();
  await ctx.db
    .insertInto("oidc_flows")
    .values({
      state_hash: sha256(state),
      browser_hash: sha256(cookie),
      provider_id: provider.id,
      intent: uid ? "bind" : "login",
      uid: uid ?? null,
      nonce,
      code_verifier: codeVerifier,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + FLOW_TTL_MS).toISOString(),
      used_at: null,
    })
    .execute();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri,
    scope: provider.scopes,
    state,
    nonce,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
  });
  return { result: { url: url.href }, cookie };
}

/**
 * Finishes a flow: signs in, binds, or leaves a pending identity to link or register. A bind
 * finishes only for the customer who started it, still signed in (`signedInUid` authenticates the
 * caller, refusing when nobody is).
 */
export async function finishFlow(
  ctx: AppContext,
  from: FlowBrowser,
  body: OidcCallbackBody,
  meta: ClientMeta,
  signedInUid: () => Promise<number>,
): Promise<OidcCallbackResult> {
  const browser = browserHash(from);
  const stateHash = sha256(body.state);
  // Taken before anything else: a state answers once, in the browser that started it, in time.
  const taken = await ctx.db
    .updateTable("oidc_flows")
    .set({ used_at: nowIso() })
    .where("state_hash", "=", stateHash)
    .where("browser_hash", "=", browser)
    .where("used_at", "is", null)
    .where("expires_at", ">", nowIso())
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) !== 1) throw staleFlow();
  const flow = await ctx.db
    .selectFrom("oidc_flows")
    .selectAll()
    .where("state_hash", "=", stateHash)
    .executeTakeFirstOrThrow();
  if (body.error) throw refused(providerErrorMessage(body.error));
  if (!body.code) throw staleFlow();
  const provider = await enabledProvider(ctx, flow.provider_id);
  const config = await providerConfig(ctx, provider);
  const current = new URL(redirectUri(ctx));
  for (const [k, v] of Object.entries(body)) if (typeof v === "string") current.searchParams.set(k, v);
  let subject: string;
  let nickname: string;
  try {
    const tokens = await client.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: flow.code_verifier,
      expectedState: body.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims?.sub) throw new Error("no subject");
    subject = claims.sub;
    const name = [claims.nickname, claims.preferred_username, claims.name].find(
      (v): v is string => typeof v === "string" && v.trim() !== "",
    );
    nickname = (name ?? "").trim().slice(0, 32);
  } catch (err) {
    ctx.log.warn({ err, provider: provider.id }, "oidc: the provider's answer was refused");
    throw refused("第三方登录校验失败，请重新发起");
  }

  if (flow.intent === "bind") {
    // The bind finishes for the customer who started it, still signed in.
    const uid = await signedInUid();
    if (uid !== flow.uid) throw staleFlow();
    await bindIdentity(ctx.db, uid, provider.id, subject);
    return { kind: "bound", provider: provider.name };
  }

  const bound = await ctx.db
    .selectFrom("oidc_identities")
    .select("uid")
    .where("provider_id", "=", provider.id)
    .where("subject", "=", subject)
    .executeTakeFirst();
  if (bound) {
    const session = await signIn(ctx, bound.uid, meta, { method: "oidc", provider: provider.name });
    return { kind: "session", ...session };
  }
  const ticket = randomToken(24);
  const expires = new Date(Date.now() + PENDING_TTL_MS).toISOString();
  await ctx.db
    .insertInto("oidc_pending")
    .values({
      ticket_hash: sha256(ticket),
      browser_hash: browser,
      provider_id: provider.id,
      subject,
      nickname,
      created_at: nowIso(),
      expires_at: expires,
      used_at: null,
    })
    .execute();
  return { kind: "unlinked", ticket, provider: provider.name, expires_at: expires };
}

/** Inserts a binding; one account per provider subject, one subject per account and provider. */
async function bindIdentity(db: Kysely<DB>, uid: number, providerId: number, subject: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockUser(trx, uid);
    const taken = await trx
      .selectFrom("oidc_identities")
      .select(["uid"])
      .where((eb) =>
        eb.or([
          eb.and([eb("provider_id", "=", providerId), eb("subject", "=", subject)]),
          eb.and([eb("provider_id", "=", providerId), eb("uid", "=", uid)]),
        ]),
      )
      .execute();
    if (taken.some((t) => t.uid !== uid)) throw localDuplicated("该第三方账号已绑定其他账号");
    if (taken.length) throw localDuplicated("你已绑定过该登录方式，请先解绑");
    await trx
      .insertInto("oidc_identities")
      .values({ uid, provider_id: providerId, subject, created_at: nowIso() })
      .execute();
  });
}

async function signIn(
  ctx: AppContext,
  uid: number,
  meta: ClientMeta,
  how: Parameters<typeof recordLogin>[4],
  db: Tx = direct(ctx),
): Promise<TokenResult> {
  const user = await findUserByUid(db, uid);
  if (!user) throw notFound("用户");
  if (user.status === UserStatus.Banned) throw bannedError(user.ban_reason);
  if (user.status !== UserStatus.Active) throw refused("账号状态异常，请联系客服");
  await refuseWithoutSecondFactor(ctx, user, db);
  await recordLogin(db, uid, meta.ip, meta.userAgent, how);
  return issueSession(ctx, uid, meta, db);
}

/** The pending identity of this ticket in this browser, taken (single use) by `take`. */
async function pending(ctx: AppContext, browser: FlowBrowser, ticket: string) {
  const row = await ctx.db
    .selectFrom("oidc_pending")
    .selectAll()
    .where("ticket_hash", "=", sha256(ticket))
    .where("browser_hash", "=", browserHash(browser))
    .where("used_at", "is", null)
    .where("expires_at", ">", nowIso())
    .executeTakeFirst();
  if (!row) throw staleFlow();
  const provider = await enabledProvider(ctx, row.provider_id);
  const take = async (db: Kysely<DB>) => {
    const r = await db
      .updateTable("oidc_pending")
      .set({ used_at: nowIso() })
      .where("ticket_hash", "=", row.ticket_hash)
      .where("used_at", "is", null)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw staleFlow();
  };
  return { row, provider, take };
}

/** Binds a pending identity to the account of a phone proven by an SMS code (scene login), and signs in. */
export async function linkPending(
  ctx: AppContext,
  browser: FlowBrowser,
  body: OidcLinkBody,
  meta: ClientMeta,
): Promise<TokenResult> {
  const { row, provider, take } = await pending(ctx, browser, body.ticket);
  // The code first, so that a wrong one is answered alike for any phone: only its holder learns
  // whether it has an account (the ticket stays, to create one instead).
  await consumeCode(ctx, body.phone, "login", body.code);
  const user = await findUserByPhone(ctx.db, body.phone);
  if (!user) throw notFound("该手机号对应的账号");
  // Before binding: an account with a second factor is never bound to a provider that cannot ask for it.
  await refuseWithoutSecondFactor(ctx, user);
  await take(ctx.db);
  await bindIdentity(ctx.db, user.uid, provider.id, row.subject);
  return signIn(ctx, user.uid, meta, { method: "sms", provider: provider.name });
}

/** Creates an account for a pending identity: no password, no phone yet (needed before buying or creating tunnels). */
export async function registerPending(
  ctx: AppContext,
  browser: FlowBrowser,
  ticket: string,
  meta: ClientMeta,
): Promise<TokenResult> {
  const { row, provider, take } = await pending(ctx, browser, ticket);
  try {
    return await transact(ctx, async (trx) => {
      await take(trx);
      const tail = randomCode(6);
      const uid = await insertUser(trx, {
        phone: `${NO_PHONE_PREFIX}${randomToken(12)}`,
        password_hash: "",
        role: Role.Customer,
        status: UserStatus.Active,
        ban_reason: null,
        nickname: row.nickname || `用户${tail}`,
        frp_token: randomToken(16),
        invite_code: randomCode(8),
        referrer_uid: null,
        real_name: null,
        id_number_masked: null,
        created_at: nowIso(),
        last_login_at: null,
      });
      await trx
        .insertInto("oidc_identities")
        .values({ uid, provider_id: provider.id, subject: row.subject, created_at: nowIso() })
        .execute();
      await grantDefaultPlan(trx, uid);
      return signIn(ctx, uid, meta, { method: "oidc", provider: provider.name }, trx);
    });
  } catch (err) {
    // Two registrations of one identity at once: the unique (provider, subject) index lets one win.
    if (isUniqueViolation(err)) throw localDuplicated("该第三方账号已绑定其他账号");
    throw err;
  }
}

export async function listBindings(ctx: AppContext, uid: number): Promise<OidcBindingView[]> {
  return ctx.db
    .selectFrom("oidc_identities")
    .innerJoin("oidc_providers", "oidc_providers.id", "oidc_identities.provider_id")
    .select(["oidc_identities.provider_id", "oidc_providers.name as provider", "oidc_identities.created_at"])
    .where("oidc_identities.uid", "=", uid)
    .orderBy("oidc_identities.id")
    .execute();
}

/** Unbinds a provider from the customer's own account; never its last way to sign in. */
export async function unbind(ctx: AppContext, uid: number, providerId: number): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await lockUser(trx, uid);
    const mine = await trx.selectFrom("oidc_identities").select("provider_id").where("uid", "=", uid).execute();
    if (!mine.some((m) => m.provider_id === providerId)) throw notFound("该绑定");
    const user = await findUserByUid(trx, uid);
    if (!user?.password_hash && mine.length <= 1)
      throw refused("这是账号唯一的登录方式，请先绑定手机号并通过「忘记密码」设置密码，或绑定其他第三方账号");
    await trx.deleteFrom("oidc_identities").where("uid", "=", uid).where("provider_id", "=", providerId).execute();
  });
}
