import { z } from "zod";

/*
 * Sign-in security (issue 34 §1): TOTP two-factor sign-in with recovery codes, the staff
 * requirement, and the account's own session list.
 */

/** A six-digit authenticator code (RFC 6238: SHA-1, 30 s). */
export const TotpCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, "请输入 6 位数字验证码");

/** A TOTP code, or one of the recovery codes ("xxxxx-xxxxx", case and dash ignored). */
export const SecondFactorCode = z.string().trim().min(6, "请输入验证码或恢复码").max(32, "请输入验证码或恢复码");

/** The signed challenge a password sign-in answers with when a second factor is needed (30006). */
export const MfaChallenge = z.string().min(20, "登录验证已失效，请重新登录").max(2000);

/** POST /auth/mfa: the second step of a sign-in. */
export const MfaVerifyBody = z.object({ challenge: MfaChallenge, code: SecondFactorCode });
export type MfaVerifyBody = z.infer<typeof MfaVerifyBody>;

/** POST /auth/mfa/setup: a staff member required to enrol, before their first session. */
export const MfaSetupBody = z.object({ challenge: MfaChallenge });
export type MfaSetupBody = z.infer<typeof MfaSetupBody>;

/** POST /auth/mfa/setup/confirm */
export const MfaSetupConfirmBody = z.object({ challenge: MfaChallenge, code: TotpCode });
export type MfaSetupConfirmBody = z.infer<typeof MfaSetupConfirmBody>;

/** POST /user/mfa/totp/confirm, POST /user/mfa/recovery-codes */
export const TotpCodeBody = z.object({ code: TotpCode });
export type TotpCodeBody = z.infer<typeof TotpCodeBody>;

/** POST /user/mfa/totp/disable: a current code (or a recovery code), or the password. */
export const TotpDisableBody = z
  .object({
    code: SecondFactorCode.optional(),
    password: z.string().min(1, "请输入密码").max(64).optional(),
  })
  .refine((b) => b.code !== undefined || b.password !== undefined, {
    message: "请输入验证码或密码",
    path: ["code"],
  });
export type TotpDisableBody = z.infer<typeof TotpDisableBody>;

/** The `data` of a SecondFactorRequired (30006) answer to a password sign-in. */
export interface MfaChallengeData {
  /** what POST /auth/mfa (or, with `setup`, /auth/mfa/setup) takes; not a session */
  challenge: string;
  /** ISO time the challenge expires */
  expires_at: string;
  /** true: the account must enrol a second factor first (the staff requirement) */
  setup: boolean;
  /** the account has a passkey: POST /auth/mfa/passkey passes the step as well as a code */
  passkey: boolean;
  /** the account has TOTP: POST /auth/mfa takes a code (or a recovery code) */
  totp: boolean;
}

/** GET /user/mfa */
export interface MfaStatus {
  totp_enabled: boolean;
  /** ISO time it was confirmed, null when off */
  enabled_at: string | null;
  /** unused recovery codes */
  recovery_codes_left: number;
  /** the operator requires a second factor for this account's role (STAFF_MFA_REQUIRED) */
  required: boolean;
  /** registered passkeys (each passes the second step as well as TOTP does) */
  passkeys: number;
}

/** POST /user/mfa/totp (and /auth/mfa/setup): a new secret to enter into an authenticator app. */
export interface TotpEnrolment {
  /** base32, as authenticator apps take it by hand */
  secret: string;
  /** otpauth://totp/… for the QR code */
  uri: string;
}

/** Recovery codes, shown once. */
export interface RecoveryCodes {
  recovery_codes: string[];
}

/** POST /auth/mfa/setup/confirm: the session, and the recovery codes shown once. */
export interface MfaSetupResult extends RecoveryCodes {
  token: string;
  expires_at: string;
}

/** GET /user/sessions: one signed-in device. */
export interface SessionInfo {
  id: string;
  /** from the user agent: "Chrome · Windows" */
  device: string;
  ip: string;
  created_at: string;
  /** ISO; refreshed at most every few minutes while in use */
  last_seen_at: string;
  /** the session this request came with */
  current: boolean;
}

export const SessionParams = z.object({ sid: z.string().min(1).max(64) });
export type SessionParams = z.infer<typeof SessionParams>;
