import { createHash, randomInt } from "node:crypto";
import { type MfaStatus, type RecoveryCodes, Role, type TotpDisableBody, type TotpEnrolment } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { invalid, notFound, refused } from "../../shared/errors";
import { openText, sealText, secretKey } from "../../shared/secret-box";
import { nowIso } from "../../shared/time";
import { type Tx, transact } from "../../shared/tx";
import { findUserByUid } from "../users/users.repository";
import { countedAttempt, FAILS_PER_ACCOUNT, FAILS_PER_IP, ipFailKey } from "./attempts";
import { checkPasswordLimited } from "./auth.service";
import { matchTotp, newTotpSecret, otpauthUri } from "./totp";
import { hasPasskey, passkeysOf } from "./webauthn";

/*
 * An account's TOTP factor and recovery codes (issue 34 §1; docs/security.md "Two-factor sign-in").
 * The secret is sealed with AES-256-GCM under MFA_SECRET_KEY (shared/secret-box.ts, bound to the
 * uid); recovery codes are kept as SHA-256 only and shown once.
 */

const ISSUER = "Burrow";
const RECOVERY_CODES = 10;
const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/** What an operator sees enabling two-factor in production without MFA_SECRET_KEY. */
export const MFA_SECRET_MISSING = "服务端未配置两步验证的加密密钥（MFA_SECRET_KEY），暂不能启用两步验证，请联系管理员";

const key = (ctx: AppContext): Promise<Buffer> =>
  secretKey(ctx, {
    env: ctx.config.MFA_SECRET_KEY,
    setting: "mfa_secret_key",
    derive: (secret) => createHash("sha256").update(`burrow-mfa:${secret}`).digest(),
    missing: MFA_SECRET_MISSING,
  });
const aad = (uid: number) => `totp:${uid}`;

/** Whether the operator requires a second factor of this role (STAFF_MFA_REQUIRED: Managers and support staff). */
export const mfaRequiredFor = (ctx: AppContext, role: number): boolean =>
  ctx.config.STAFF_MFA_REQUIRED && role >= Role.Support;

const factorOf = (db: Kysely<DB>, uid: number) =>
  db.selectFrom("totp_factors").select(["secret", "enabled_at"]).where("uid", "=", uid).executeTakeFirst();

/** Whether the account signs in with TOTP (a confirmed factor). */
export async function totpEnabled(db: Kysely<DB>, uid: number): Promise<boolean> {
  return Boolean((await factorOf(db, uid))?.enabled_at);
}

/** Whether the account has a second factor: TOTP or a passkey (either passes the second step). */
export async function hasSecondFactor(db: Kysely<DB>, uid: number): Promise<boolean> {
  return (await totpEnabled(db, uid)) || (await hasPasskey(db, uid));
}

export async function mfaStatus(ctx: AppContext, uid: number, role: number): Promise<MfaStatus> {
  const [factor, left, passkeys] = await Promise.all([
    factorOf(ctx.db, uid),
    ctx.db
      .selectFrom("recovery_codes")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("uid", "=", uid)
      .where("used_at", "is", null)
      .executeTakeFirst(),
    passkeysOf(ctx.db, uid),
  ]);
  const enabled = Boolean(factor?.enabled_at);
  return {
    totp_enabled: enabled,
    enabled_at: factor?.enabled_at ?? null,
    recovery_codes_left: enabled ? Number(left?.n ?? 0) : 0,
    required: mfaRequiredFor(ctx, role),
    passkeys: passkeys.length,
  };
}

/**
 * Starts enabling TOTP: a new secret, pending until confirmed with a code (a pending secret signs
 * nobody in; starting again replaces it). Refused while a confirmed one is in force.
 */
export async function startTotp(ctx: AppContext, uid: number): Promise<TotpEnrolment> {
  const user = await findUserByUid(ctx.db, uid);
  if (!user) throw notFound("用户");
  if (await totpEnabled(ctx.db, uid)) throw refused("已启用两步验证；如需更换验证器，请先停用再重新启用");
  const secret = newTotpSecret();
  const sealed = sealText(await key(ctx), secret, aad(uid));
  await ctx.db
    .insertInto("totp_factors")
    .values({ uid, secret: sealed, enabled_at: null, last_step: null, created_at: nowIso() })
    .onConflict((oc) => oc.column("uid").doUpdateSet({ secret: sealed, enabled_at: null, last_step: null }))
    .execute();
  return { secret, uri: otpauthUri(secret, ISSUER, user.phone) };
}

/**
 * Confirms the pending secret with a code from the app: TOTP is in force from now, and ten new
 * recovery codes are answered (shown once). Counted like a second-factor sign-in attempt.
 */
export async function confirmTotp(ctx: AppContext, uid: number, code: string, ip: string): Promise<RecoveryCodes> {
  const factor = await factorOf(ctx.db, uid);
  if (!factor) throw refused("请先生成两步验证密钥");
  if (factor.enabled_at) throw refused("两步验证已启用");
  const secret = openText(await key(ctx), factor.secret, aad(uid));
  const step = await countedAttempt(
    ctx,
    budgets(uid, ip),
    async () => matchTotp(secret, code),
    (s) => s !== null,
  );
  if (step === null) throw invalid("code", "验证码错误，请核对验证器上的时间与验证码");
  return transact(ctx, async (trx) => {
    // Only the secret that was checked, still pending (a concurrent restart replaced it: refused).
    const r = await trx
      .updateTable("totp_factors")
      .set({ enabled_at: nowIso(), last_step: step })
      .where("uid", "=", uid)
      .where("secret", "=", factor.secret)
      .where("enabled_at", "is", null)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw refused("两步验证密钥已变化，请重新开始");
    return { recovery_codes: await replaceRecoveryCodes(trx, uid) };
  });
}

/** New recovery codes in place of the old ones (a current code proves the holder). */
export async function regenerateRecoveryCodes(
  ctx: AppContext,
  uid: number,
  code: string,
  ip: string,
): Promise<RecoveryCodes> {
  if (!(await totpEnabled(ctx.db, uid))) throw refused("未启用两步验证");
  const r = await checkSecondFactor(ctx, uid, ip, code, { recovery: false });
  if (r !== "ok") throw secondFactorError(r);
  return transact(ctx, async (trx) => ({ recovery_codes: await replaceRecoveryCodes(trx, uid) }));
}

/**
 * Turns TOTP off, proven by a current (or recovery) code or the password, each under its own
 * failure limit. Refused while the operator requires a second factor of the account's role.
 */
export async function disableTotp(ctx: AppContext, uid: number, body: TotpDisableBody, ip: string): Promise<void> {
  const user = await findUserByUid(ctx.db, uid);
  if (!user) throw notFound("用户");
  if (!(await totpEnabled(ctx.db, uid))) throw refused("未启用两步验证");
  // A passkey meets the requirement too: TOTP may go while one stays.
  if (mfaRequiredFor(ctx, user.role) && !(await hasPasskey(ctx.db, uid)))
    throw refused("站点要求管理人员必须使用两步验证，不能停用");
  if (body.code !== undefined) {
    const r = await checkSecondFactor(ctx, uid, ip, body.code, { recovery: true });
    if (r !== "ok") throw secondFactorError(r);
  } else if (!(await checkPasswordLimited(ctx, user.phone, ip, user.password_hash, body.password ?? "")))
    throw invalid("password", "密码错误");
  await transact(ctx, async (trx) => {
    await trx.deleteFrom("recovery_codes").where("uid", "=", uid).execute();
    await trx.deleteFrom("totp_factors").where("uid", "=", uid).execute();
  });
}

/** Why a second factor was not accepted. */
export type SecondFactorResult = "ok" | "wrong" | "replayed";

export const secondFactorError = (r: Exclude<SecondFactorResult, "ok">) =>
  r === "replayed" ? invalid("code", "该验证码已使用过，请等待验证器显示下一个验证码") : invalid("code", "验证码错误");

/** The limiter key of an account's second-factor failures (TOTP, recovery codes and passkeys share it). */
export const mfaFailKey = (uid: number): string => `mfa:fail:uid:${uid}`;

const budgets = (uid: number, ip: string) =>
  [
    { key: ipFailKey(ip), limit: FAILS_PER_IP, onSuccess: "undo" },
    { key: mfaFailKey(uid), limit: FAILS_PER_ACCOUNT, onSuccess: "reset" },
  ] as const;

/**
 * Checks a TOTP code (six digits) or, when allowed, a recovery code against a confirmed factor,
 * under the second factor's own failure limit (five per account, thirty per address, 15 minutes;
 * a replay counts as a failure). An accepted TOTP code moves the factor's last step to its own, in
 * one conditional update, so the same code (or an older one) is refused from then on, also to a
 * concurrent request; an accepted recovery code is marked used the same way.
 */
export async function checkSecondFactor(
  ctx: AppContext,
  uid: number,
  ip: string,
  code: string,
  opts: { recovery: boolean },
): Promise<SecondFactorResult> {
  const factor = await factorOf(ctx.db, uid);
  if (!factor?.enabled_at) throw refused("未启用两步验证");
  const secret = openText(await key(ctx), factor.secret, aad(uid));
  const typed = code.trim();
  return countedAttempt(
    ctx,
    budgets(uid, ip),
    async (): Promise<SecondFactorResult> => {
      if (/^\d{6}$/.test(typed)) {
        const step = matchTotp(secret, typed);
        if (step === null) return "wrong";
        const r = await ctx.db
          .updateTable("totp_factors")
          .set({ last_step: step })
          .where("uid", "=", uid)
          .where((eb) => eb.or([eb("last_step", "is", null), eb("last_step", "<", step)]))
          .executeTakeFirst();
        return Number(r.numUpdatedRows) === 1 ? "ok" : "replayed";
      }
      if (!opts.recovery) return "wrong";
      const r = await ctx.db
        .updateTable("recovery_codes")
        .set({ used_at: nowIso() })
        .where("uid", "=", uid)
        .where("code_hash", "=", hashRecoveryCode(typed))
        .where("used_at", "is", null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1 ? "ok" : "wrong";
    },
    (r) => r === "ok",
  );
}

/** Case, spaces and dashes do not matter when a recovery code is typed. */
const hashRecoveryCode = (code: string): string =>
  createHash("sha256")
    .update(code.toLowerCase().replace(/[^a-z0-9]/g, ""))
    .digest("hex");

const newRecoveryCode = (): string => {
  const c = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join("");
  return `${c.slice(0, 5)}-${c.slice(5)}`;
};

async function replaceRecoveryCodes(trx: Tx, uid: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  const now = nowIso();
  await trx.deleteFrom("recovery_codes").where("uid", "=", uid).execute();
  await trx
    .insertInto("recovery_codes")
    .values(codes.map((c) => ({ uid, code_hash: hashRecoveryCode(c), used_at: null, created_at: now })))
    .execute();
  return codes;
}
