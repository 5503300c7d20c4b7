import type { WebAuthnCredentialJson } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { invalid, rateLimited, refused } from "../../shared/errors";
import { randomToken } from "../../shared/ids";
import { clientKey } from "../../shared/rate-limit";
import { nowIso } from "../../shared/time";

/*
 * What passkey registration and sign-in share (docs/security.md "Passkeys"): the relying party
 * (from PUBLIC_URL only), the challenge store (single use, five minutes, bound to whoever asked),
 * the passkey rows, and what a refused answer tells its user.
 */

export const PASSKEY_CHALLENGE_TTL_SEC = 5 * 60;
/** Options asked for per address in FAIL_WINDOW: each stores a challenge row until it expires. */
const OPTIONS_PER_IP = 60;
const OPTIONS_WINDOW_SEC = 15 * 60;

/** register, sign in, the sign-in's second step, or confirming an act of a signed-in session (passkey-confirm.ts) */
export type ChallengePurpose = "register" | "signin" | "mfa" | "confirm";

export interface RelyingParty {
  /** the RP ID: PUBLIC_URL's host name */
  id: string;
  /** the only origin an answer may come from: PUBLIC_URL's */
  origin: string;
  name: string;
}

/**
 * The relying party, from the configured PUBLIC_URL alone: never from Host, Origin or
 * X-Forwarded-*, which whoever sends the request chooses (a passkey for another site's RP ID
 * would otherwise be accepted here).
 */
export function relyingParty(ctx: AppContext): RelyingParty {
  const url = ctx.config.PUBLIC_URL;
  if (!url) throw refused("站点未配置 PUBLIC_URL（控制台的公网地址），暂不能使用通行密钥，请联系管理员");
  const u = new URL(url);
  return { id: u.hostname, origin: u.origin, name: "Burrow" };
}

/** The WebAuthn user handle of an account: its uid (the same for all its passkeys, so one per site per authenticator). */
/** A challenge as the options take it: its bytes (a string would be encoded again, as UTF-8). */
export const challengeBytes = (challenge: string): Uint8Array<ArrayBuffer> =>
  new Uint8Array(Buffer.from(challenge, "base64url"));

export const userHandleOf = (uid: number): Uint8Array<ArrayBuffer> => new TextEncoder().encode(String(uid));
export const userHandleB64 = (uid: number): string => Buffer.from(userHandleOf(uid)).toString("base64url");

/**
 * A new challenge for `purpose`, bound to an account (0: anyone's, the usernameless sign-in) and to
 * what asked (the session id, the 30006 challenge's id). Expired ones are cleared on the way; the
 * options are limited per address, as each stores a row.
 */
export async function issueChallenge(
  ctx: AppContext,
  purpose: ChallengePurpose,
  bind: { uid: number; to: string; ip: string },
): Promise<{ challenge: string; expires_at: string }> {
  const r = await ctx.limiter.hit(`passkey:options:ip:${clientKey(bind.ip)}`, OPTIONS_PER_IP, OPTIONS_WINDOW_SEC);
  if (!r.allowed) throw rateLimited(r.retryAfterSec);
  const challenge = randomToken(32);
  const expires_at = new Date(Date.now() + PASSKEY_CHALLENGE_TTL_SEC * 1000).toISOString();
  await ctx.db.deleteFrom("passkey_challenges").where("expires_at", "<", nowIso()).execute();
  await ctx.db
    .insertInto("passkey_challenges")
    .values({ challenge, purpose, uid: bind.uid, bound_to: bind.to, expires_at })
    .execute();
  return { challenge, expires_at };
}

/**
 * Spends a challenge the answer names: true only for an unexpired one issued for this purpose and
 * binding, and only once (one conditional delete, so a concurrent replay finds nothing).
 */
export async function spendChallenge(
  ctx: AppContext,
  challenge: string,
  purpose: ChallengePurpose,
  bind: { uid: number; to: string },
): Promise<boolean> {
  const r = await ctx.db
    .deleteFrom("passkey_challenges")
    .where("challenge", "=", challenge)
    .where("purpose", "=", purpose)
    .where("uid", "=", bind.uid)
    .where("bound_to", "=", bind.to)
    .where("expires_at", ">", nowIso())
    .executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

export const passkeysOf = (db: Kysely<DB>, uid: number) =>
  db.selectFrom("passkeys").selectAll().where("uid", "=", uid).orderBy("id").execute();

export const passkeyByCredential = (db: Kysely<DB>, credentialId: string) =>
  db.selectFrom("passkeys").selectAll().where("credential_id", "=", credentialId).executeTakeFirst();

/** Whether the account has a passkey (a second factor, as TOTP is). */
export async function hasPasskey(db: Kysely<DB>, uid: number): Promise<boolean> {
  const row = await db.selectFrom("passkeys").select("id").where("uid", "=", uid).limit(1).executeTakeFirst();
  return Boolean(row);
}

export const transportsOf = (json: string): string[] => {
  const v: unknown = JSON.parse(json);
  return Array.isArray(v) ? v.filter((t): t is string => typeof t === "string") : [];
};

/** The signature counter an assertion carries (authenticatorData bytes 33-36, big-endian), or null. */
export function assertedCounter(credential: WebAuthnCredentialJson): number | null {
  const data = credential.response.authenticatorData;
  if (!data) return null;
  const buf = Buffer.from(data, "base64url");
  return buf.length >= 37 ? buf.readUInt32BE(33) : null;
}

export const counterRegressed = (stored: number, asserted: number): boolean =>
  (stored > 0 || asserted > 0) && asserted <= stored;

export const COUNTER_REGRESSION =
  "通行密钥的签名计数器没有增加（可能是被复制的凭据），已拒绝。如非本人操作，请删除该通行密钥并修改密码";

/** What a refused WebAuthn answer tells its user: the library's reason, in the console's words. */
export function webauthnError(err: unknown): ReturnType<typeof invalid> {
  const m = err instanceof Error ? err.message : "";
  if (/challenge/i.test(m)) return invalid("credential", "通行密钥验证已过期或已使用，请重试");
  if (/origin/i.test(m)) return invalid("credential", "通行密钥的来源网址与本站不符");
  if (/RP ID/i.test(m)) return invalid("credential", "该通行密钥不属于本站");
  if (/counter/i.test(m)) return invalid("credential", COUNTER_REGRESSION);
  if (/user verification/i.test(m)) return invalid("credential", "请在设备上验证身份（指纹、面容或 PIN）后重试");
  return invalid("credential", "通行密钥验证失败，请重试");
}
