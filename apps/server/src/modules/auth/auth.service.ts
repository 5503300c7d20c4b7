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
import { AppError, invalid, localDuplicated, notFound, refused } from "../../shared/errors";
import { randomCode, randomToken } from "../../shared/ids";
import { nowIso } from "../../shared/time";
import { direct, transact } from "../../shared/tx";
import { revokeAllApiTokens } from "../apitokens/api-tokens.service";
import { grantDefaultPlan } from "../subscriptions/default-plan";
import {
  findUserByInviteCode,
  findUserByPhone,
  insertUser,
  recordLogin,
  updateUserRow,
} from "../users/users.repository";
import { countedAttempt, FAILS_PER_ACCOUNT, FAILS_PER_IP, ipFailKey } from "./attempts";
import { finishSignIn } from "./challenge";
import { noteSignInDevice } from "./devices";
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
    // The account's first device: remembered, so that a sign-in from another one is noticed.
    await noteSignInDevice(trx, uid, meta);
    return issueSession(ctx, uid, meta, trx);
  });
}

/**
 * Checks a password against the sign-in limits (attempts.ts): five failures for a phone (or thirty
 * from an IP) in 15 minutes → 429. Used by sign-in, password change and turning two-factor off,
 * so all share one budget.
 */
export async function checkPasswordLimited(
  ctx: AppContext,
  phone: string,
  ip: string,
  passwordHash: string | undefined,
  password: string,
): Promise<boolean> {
  return countedAttempt(
    ctx,
    [
      { key: ipFailKey(ip), limit: FAILS_PER_IP, onSuccess: "undo" },
      { key: `login:fail:phone:${phone}`, limit: FAILS_PER_ACCOUNT, onSuccess: "reset" },
    ],
    async () => {
      // A phone without an account (or without a password) is checked against a stand-in hash, so the
      // answer takes the same argon2 time either way and its timing tells nothing (issue 30 §10).
      const verified = await ctx.passwords.verify(passwordHash ?? (await standInHash()), password);
      return passwordHash ? verified : false;
    },
    (ok) => ok,
  );
}

/** A hash of a random password with the same parameters as real ones, made once per process. */
let standIn: Promise<string> | undefined;
const standInHash = (): Promise<string> => {
  standIn ??= hashPassword(randomBytes(24).toString("base64url"));
  return standIn;
};

/** Password sign-in, under {@link checkPasswordLimited}, then the second factor when there is one (challenge.ts). */
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
  // A session now, or the second step's challenge (30006) when the account uses or owes one.
  return finishSignIn(ctx, user, meta);
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
    await revokeAllApiTokens(trx, user.uid);
  });
}
