import { createHmac, createSecretKey, type KeyObject } from "node:crypto";
import {
  ErrorCode,
  type MfaChallengeData,
  type MfaSetupConfirmBody,
  type MfaSetupResult,
  type MfaVerifyBody,
  type TokenResult,
  type TotpEnrolment,
  UserStatus,
} from "@burrow/contract";
import { jwtVerify, SignJWT } from "jose";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { AppError, invalid, refused } from "../../shared/errors";
import { randomToken } from "../../shared/ids";
import { transact } from "../../shared/tx";
import { findUserByUid, type LoginMethod, recordLogin } from "../users/users.repository";
import type { ClientMeta } from "./auth.service";
import { noteSignInDevice } from "./devices";
import {
  checkSecondFactor,
  confirmTotp,
  hasSecondFactor,
  mfaRequiredFor,
  secondFactorError,
  startTotp,
  totpEnabled,
} from "./mfa";
import { issueSession } from "./sessions";
import { hasPasskey } from "./webauthn";

/*
 * The second step of a sign-in (docs/security.md "Two-factor sign-in"). A right password on an
 * account with TOTP answers 30006 with a challenge: a JWT under its own key (derived from the
 * session key, so it never passes as a session token), naming the account and what it may do —
 * "mfa": POST /auth/mfa; "setup": the staff enrolment — for five minutes. It is no session: nothing
 * is stored, it reaches no other endpoint, and it is spent by the step it was issued for.
 */

const CHALLENGE_TTL_SEC = 5 * 60;
type Purpose = "mfa" | "setup";

const challengeKey = (ctx: AppContext): KeyObject =>
  createSecretKey(createHmac("sha256", ctx.jwtKey).update("burrow mfa challenge").digest());

async function challengeError(ctx: AppContext, uid: number, purpose: Purpose): Promise<AppError> {
  const exp = Math.floor(Date.now() / 1000) + CHALLENGE_TTL_SEC;
  const challenge = await new SignJWT({ pur: purpose, cid: randomToken(12) })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(String(uid))
    .setExpirationTime(exp)
    .sign(challengeKey(ctx));
  const data: MfaChallengeData = {
    challenge,
    expires_at: new Date(exp * 1000).toISOString(),
    setup: purpose === "setup",
    passkey: purpose === "mfa" && (await hasPasskey(ctx.db, uid)),
    totp: purpose === "mfa" && (await totpEnabled(ctx.db, uid)),
  };
  const msg = purpose === "setup" ? "站点要求管理人员启用两步验证，请先完成设置" : "请输入两步验证码";
  return new AppError(ErrorCode.SecondFactorRequired, 401, msg, undefined, data);
}

/** The account a challenge names, when it is ours, unexpired and for `purpose`. */
async function readChallenge(ctx: AppContext, token: string, purpose: Purpose): Promise<{ uid: number; cid: string }> {
  const expired = invalid("challenge", "登录验证已过期，请重新登录");
  try {
    const { payload } = await jwtVerify(token, challengeKey(ctx), { algorithms: ["HS256"] });
    const uid = Number(payload.sub);
    if (payload.pur !== purpose || typeof payload.cid !== "string" || !Number.isSafeInteger(uid)) throw expired;
    const user = await findUserByUid(ctx.db, uid);
    if (user?.status !== UserStatus.Active) throw refused("账号状态异常，请联系客服");
    return { uid, cid: payload.cid };
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw expired;
  }
}

const spentKey = (cid: string) => `mfa:challenge:${cid}`;
const spentError = () => invalid("challenge", "登录验证已完成，请重新登录");

/** Refuses a spent challenge before its code is checked (and, when right, used up for nothing). */
async function assertUnspent(ctx: AppContext, cid: string): Promise<void> {
  if ((await ctx.limiter.peek(spentKey(cid))) > 0) throw spentError();
}

/** Spends a challenge: a second session from the same challenge is refused, also to a concurrent request. */
async function spend(ctx: AppContext, cid: string): Promise<void> {
  const r = await ctx.limiter.hit(spentKey(cid), 1, CHALLENGE_TTL_SEC);
  if (!r.allowed) throw spentError();
}

/** A session for a proven sign-in: the login history, the device (new-device notice), the session. */
export function openSession(ctx: AppContext, uid: number, meta: ClientMeta, how?: LoginMethod): Promise<TokenResult> {
  return transact(ctx, async (trx) => {
    await recordLogin(trx, uid, meta.ip, meta.userAgent, how);
    await noteSignInDevice(trx, uid, meta);
    return issueSession(ctx, uid, meta, trx);
  });
}

/**
 * After the password: a session, or — with TOTP or a passkey, or the staff requirement unmet — a 30006
 * challenge for the second step.
 */
export async function finishSignIn(
  ctx: AppContext,
  user: { uid: number; role: number },
  meta: ClientMeta,
): Promise<TokenResult> {
  if (await hasSecondFactor(ctx.db, user.uid)) throw await challengeError(ctx, user.uid, "mfa");
  if (mfaRequiredFor(ctx, user.role)) throw await challengeError(ctx, user.uid, "setup");
  return openSession(ctx, user.uid, meta);
}

/**
 * A sign-in that cannot ask for the second factor — through a third-party provider, or its
 * linking by SMS code — is refused for an account that has one or owes one (the staff
 * requirement): otherwise the provider (or the phone) alone would pass where the password cannot.
 */
export async function refuseWithoutSecondFactor(
  ctx: AppContext,
  user: { uid: number; role: number },
  db: Kysely<DB> = ctx.db,
): Promise<void> {
  // `db`: the caller's transaction when it has one (SQLite has one connection: another would wait on it).
  if ((await hasSecondFactor(db, user.uid)) || mfaRequiredFor(ctx, user.role))
    throw refused("此账号已启用两步验证，请使用手机号、密码和验证码登录");
}

/** The account and id of an unexpired, unspent second-step challenge (passkey options are bound to it). */
export async function secondStepOf(ctx: AppContext, challenge: string): Promise<{ uid: number; cid: string }> {
  const c = await readChallenge(ctx, challenge, "mfa");
  await assertUnspent(ctx, c.cid);
  return c;
}

/**
 * The second step, whichever factor proves it (`prove` throws unless the account's holder
 * answered): the challenge is spent, then the session opened.
 */
export async function finishSecondStep(
  ctx: AppContext,
  challenge: string,
  meta: ClientMeta,
  prove: (uid: number, cid: string) => Promise<void>,
): Promise<TokenResult> {
  const { uid, cid } = await secondStepOf(ctx, challenge);
  await prove(uid, cid);
  await spend(ctx, cid);
  return openSession(ctx, uid, meta);
}

/** POST /auth/mfa: the challenge and a TOTP or recovery code → the session. */
export function verifySignIn(ctx: AppContext, body: MfaVerifyBody, meta: ClientMeta): Promise<TokenResult> {
  return finishSecondStep(ctx, body.challenge, meta, async (uid) => {
    const r = await checkSecondFactor(ctx, uid, meta.ip, body.code, { recovery: true });
    if (r !== "ok") throw secondFactorError(r);
  });
}

/** POST /auth/mfa/setup: the staff enrolment's secret (the setup challenge stands for the session). */
export async function startSetup(ctx: AppContext, body: { challenge: string }): Promise<TotpEnrolment> {
  const { uid } = await readChallenge(ctx, body.challenge, "setup");
  return startTotp(ctx, uid);
}

/** POST /auth/mfa/setup/confirm: TOTP confirmed → the recovery codes and the first session. */
export async function confirmSetup(
  ctx: AppContext,
  body: MfaSetupConfirmBody,
  meta: ClientMeta,
): Promise<MfaSetupResult> {
  const { uid, cid } = await readChallenge(ctx, body.challenge, "setup");
  await assertUnspent(ctx, cid);
  const codes = await confirmTotp(ctx, uid, body.code, meta.ip);
  await spend(ctx, cid);
  return { ...codes, ...(await openSession(ctx, uid, meta)) };
}
