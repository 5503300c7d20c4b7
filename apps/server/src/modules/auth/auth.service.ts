import { randomBytes } from "node:crypto";
import {
  type LoginBody,
  type RegisterBody,
  type ResetBody,
  Role,
  type TokenResult,
  UserStatus,
} from "@burrow/contract";
import type { AppContext } from "../../context";
import { AppError, invalid, localDuplicated, notFound, rateLimited, refused } from "../../shared/errors";
import { randomCode, randomToken } from "../../shared/ids";
import { clientKey } from "../../shared/rate-limit";
import { nowIso } from "../../shared/time";
import { direct, transact } from "../../shared/tx";
import { grantDefaultPlan } from "../subscriptions/default-plan";
import {
  findUserByInviteCode,
  findUserByPhone,
  insertUser,
  recordLogin,
  updateUserRow,
} from "../users/users.repository";
import { hashPassword } from "./passwords";
import { bannedError, issueSession, revokeSessions } from "./sessions";
import { consumeCode, sendCode } from "./sms";

export interface ClientMeta {
  ip: string;
  userAgent: string;
}

/**
 * Sends an SMS code for any scene, whether or not the phone has an account: the answer, and the
 * work behind it, are the same either way, so this call cannot be asked who is a customer. Whether
 * the phone is free (register, phone) or has an account (reset, login) is said only once its code
 * is proven, to the phone's holder (docs/security.md, "Smaller").
 */
export async function requestSmsCode(ctx: AppContext, phone: string, scene: string, meta: ClientMeta): Promise<void> {
  await sendCode(ctx, phone, scene, meta.ip);
}

/** Creates the user, its free plan, and a session, all in one transaction. */
export async function register(ctx: AppContext, body: RegisterBody, meta: ClientMeta): Promise<TokenResult> {
  let referrer: number | null = null;
  if (body.invite_code) {
    const inviter = await findUserByInviteCode(ctx.db, body.invite_code.toUpperCase());
    if (!inviter) throw invalid("invite_code", "邀请码不存在");
    referrer = inviter.uid;
  }
  // The code first: only the phone's holder may learn that it has an account.
  await consumeCode(ctx, body.phone, "register", body.code);
  if (await findUserByPhone(ctx.db, body.phone)) throw localDuplicated("该手机号已注册，请直接登录或找回密码", "phone");
  const passwordHash = await ctx.passwords.hash(body.password);
  return transact(ctx, async (trx) => {
    const uid = await insertUser(trx, {
      phone: body.phone,
      password_hash: passwordHash,
      role: Role.Customer,
      status: UserStatus.Active,
      ban_reason: null,
      nickname: `用户${body.phone.slice(-4)}`,
      frp_token: randomToken(16),
      invite_code: randomCode(8),
      referrer_uid: referrer,
      real_name: null,
      id_number_masked: null,
      created_at: nowIso(),
      last_login_at: null,
    });
    await grantDefaultPlan(trx, uid);
    await recordLogin(trx, uid, meta.ip, meta.userAgent, { method: "register" });
    return issueSession(ctx, uid, meta, trx);
  });
}

const FAIL_WINDOW = 15 * 60;
const FAILS_PER_PHONE = 5;
const FAILS_PER_IP = 30;

/**
 * Checks a password against the sign-in limits: five failures for a phone (or thirty from an
 * IP) in 15 minutes → 429. Used by sign-in and by password change, so both share one budget.
 *
 * Every attempt is counted atomically *before* the password is checked, so that concurrent
 * requests cannot all pass a "not locked yet" check: at most five checks per phone (thirty per
 * IP) are ever evaluated in a window. A success takes its own IP hit back and clears the phone's
 * counter; an attempt that was never evaluated (its phone is locked, or argon2 is busy) is taken
 * back too, so the counters hold failures plus attempts in flight.
 */
export async function checkPasswordLimited(
  ctx: AppContext,
  phone: string,
  ip: string,
  passwordHash: string | undefined,
  password: string,
): Promise<boolean> {
  const phoneKey = `login:fail:phone:${phone}`;
  const ipKey = `login:fail:ip:${clientKey(ip)}`;
  const byIp = await ctx.limiter.hit(ipKey, FAILS_PER_IP, FAIL_WINDOW);
  if (!byIp.allowed) throw rateLimited(byIp.retryAfterSec);
  const byPhone = await ctx.limiter.hit(phoneKey, FAILS_PER_PHONE, FAIL_WINDOW);
  if (!byPhone.allowed) {
    await ctx.limiter.undo(ipKey);
    throw rateLimited(byPhone.retryAfterSec);
  }
  let ok = false;
  try {
    // A phone without an account (or without a password) is checked against a stand-in hash, so the
    // answer takes the same argon2 time either way and its timing tells nothing (issue 30 §10).
    const verified = await ctx.passwords.verify(passwordHash ?? (await standInHash()), password);
    ok = passwordHash ? verified : false;
  } catch (err) {
    await ctx.limiter.undo(ipKey);
    await ctx.limiter.undo(phoneKey);
    throw err;
  }
  if (ok) {
    await ctx.limiter.undo(ipKey);
    await ctx.limiter.reset(phoneKey);
  }
  return ok;
}

/** A hash of a random password with the same parameters as real ones, made once per process. */
let standIn: Promise<string> | undefined;
const standInHash = (): Promise<string> => {
  standIn ??= hashPassword(randomBytes(24).toString("base64url"));
  return standIn;
};

/** Password sign-in, under {@link checkPasswordLimited}. */
export async function login(ctx: AppContext, body: LoginBody, meta: ClientMeta): Promise<TokenResult> {
  const user = await findUserByPhone(ctx.db, body.phone);
  const ok = await checkPasswordLimited(ctx, body.phone, meta.ip, user?.password_hash, body.password);
  if (!user || !ok) throw new AppError(10000, 400, "password: 手机号或密码错误", "password");
  if (user.status === UserStatus.Banned) {
    // The right password on a banned account: told the ban and its reason (30005), with a session
    // that can only reach the ban appeal (scope "appeal"), never a console session.
    await recordLogin(direct(ctx), user.uid, meta.ip, meta.userAgent);
    throw bannedError(user.ban_reason, await issueSession(ctx, user.uid, meta, ctx.db, "appeal"));
  }
  if (user.status !== UserStatus.Active) throw refused("账号状态异常，请联系客服");
  await recordLogin(direct(ctx), user.uid, meta.ip, meta.userAgent);
  return issueSession(ctx, user.uid, meta);
}

/** Password reset by SMS code; every session of the account is revoked. */
export async function resetPassword(ctx: AppContext, body: ResetBody): Promise<void> {
  await consumeCode(ctx, body.phone, "reset", body.code);
  const user = await findUserByPhone(ctx.db, body.phone);
  if (!user) throw notFound("该手机号对应的账号");
  const passwordHash = await ctx.passwords.hash(body.password);
  await transact(ctx, async (trx) => {
    await updateUserRow(trx, user.uid, { password_hash: passwordHash });
    await revokeSessions(trx, { uid: user.uid });
  });
}
