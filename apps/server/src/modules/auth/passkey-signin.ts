import {
  type PasskeyMfaBody,
  type PasskeyOptions,
  type PasskeySignInBody,
  type TokenResult,
  UserStatus,
  type WebAuthnCredentialJson,
} from "@burrow/contract";
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
} from "@simplewebauthn/server";
import type { AppContext } from "../../context";
import { type AppError, invalid, refused } from "../../shared/errors";
import { nowIso } from "../../shared/time";
import { direct } from "../../shared/tx";
import { findUserByUid, recordLogin } from "../users/users.repository";
import { type AttemptBudget, countedAttempt, FAILS_PER_ACCOUNT, FAILS_PER_IP, ipFailKey } from "./attempts";
import type { ClientMeta } from "./auth.service";
import { finishSecondStep, openSession, secondStepOf } from "./challenge";
import { mfaFailKey } from "./mfa";
import { bannedError, issueSession } from "./sessions";
import {
  assertedCounter,
  type ChallengePurpose,
  COUNTER_REGRESSION,
  challengeBytes,
  counterRegressed,
  issueChallenge,
  PASSKEY_CHALLENGE_TTL_SEC,
  passkeyByCredential,
  passkeysOf,
  relyingParty,
  spendChallenge,
  transportsOf,
  userHandleB64,
  webauthnError,
} from "./webauthn";

/*
 * Signing in with a passkey (docs/security.md "Passkeys"): alone, without a phone number (the
 * browser offers the site's discoverable passkeys; user verification required, so the passkey is
 * both factors), or as the second step where a TOTP code is asked (30006).
 */

/** What an assertion is checked against: the purpose and binding of its challenge, and whose passkey it must be. */
export interface AssertionTarget {
  purpose: Extract<ChallengePurpose, "signin" | "mfa" | "confirm">;
  /** the account the passkey must belong to; 0: anyone's (the usernameless sign-in) */
  uid: number;
  /** what the challenge was bound to (the 30006 challenge's id, the confirming session's id; "" for the sign-in) */
  to: string;
}

type Checked = { ok: true; uid: number } | { ok: false; error: AppError };

/**
 * Verifies an assertion (challenge spent once, origin and RP ID from PUBLIC_URL, signature,
 * counter) and moves the passkey's counter forward, in one conditional update: an assertion whose
 * counter does not increase is refused and said to be one. Counted under the same failure limits
 * as the password and TOTP (per address; per account once the passkey names one).
 */
export async function verifyAssertion(
  ctx: AppContext,
  credential: WebAuthnCredentialJson,
  target: AssertionTarget,
  ip: string,
): Promise<number> {
  const rp = relyingParty(ctx);
  const row = await passkeyByCredential(ctx.db, credential.id);
  const budgets: AttemptBudget[] = [{ key: ipFailKey(ip), limit: FAILS_PER_IP, onSuccess: "undo" }];
  if (row) budgets.push({ key: mfaFailKey(row.uid), limit: FAILS_PER_ACCOUNT, onSuccess: "reset" });
  const fail = (error: AppError): Checked => ({ ok: false, error });
  const r = await countedAttempt(
    ctx,
    budgets,
    async (): Promise<Checked> => {
      if (!row || (target.uid !== 0 && row.uid !== target.uid))
        return fail(invalid("credential", "该通行密钥未在此账号登记，请换一个或使用验证码"));
      // A usernameless answer names its account by the user handle too: it must be the passkey's.
      const handle = credential.response.userHandle;
      if (target.purpose === "signin" && handle !== undefined && handle !== userHandleB64(row.uid))
        return fail(invalid("credential", "通行密钥验证失败，请重试"));
      const asserted = assertedCounter(credential);
      if (asserted !== null && counterRegressed(row.counter, asserted))
        return fail(invalid("credential", COUNTER_REGRESSION));
      let info: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
      try {
        info = await verifyAuthenticationResponse({
          response: credential as AuthenticationResponseJSON,
          expectedChallenge: (c) => spendChallenge(ctx, c, target.purpose, target),
          expectedOrigin: rp.origin,
          expectedRPID: rp.id,
          credential: {
            id: row.credential_id,
            publicKey: Buffer.from(row.public_key, "base64url"),
            counter: row.counter,
            transports: transportsOf(row.transports) as never,
          },
          // Alone it must be both factors (possession and the device's PIN or biometrics).
          requireUserVerification: target.purpose === "signin",
        });
      } catch (err) {
        return fail(webauthnError(err));
      }
      if (!info.verified) return fail(webauthnError(null));
      // Only from the counter that was checked: a concurrent answer with the same counter finds it moved.
      const moved = await ctx.db
        .updateTable("passkeys")
        .set({ counter: info.authenticationInfo.newCounter, last_used_at: nowIso() })
        .where("id", "=", row.id)
        .where("counter", "=", row.counter)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) return fail(invalid("credential", COUNTER_REGRESSION));
      return { ok: true, uid: row.uid };
    },
    (c) => c.ok,
  );
  if (!r.ok) throw r.error;
  return r.uid;
}

export const requestOptions = async (
  ctx: AppContext,
  challenge: { challenge: string; expires_at: string },
  allow?: { credential_id: string; transports: string }[],
): Promise<PasskeyOptions> => {
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(ctx).id,
    challenge: challengeBytes(challenge.challenge),
    timeout: PASSKEY_CHALLENGE_TTL_SEC * 1000,
    userVerification: allow ? "preferred" : "required",
    allowCredentials: allow?.map((p) => ({ id: p.credential_id, transports: transportsOf(p.transports) })),
  });
  return { options: { ...options }, expires_at: challenge.expires_at };
};

/** POST /auth/passkey/options: a challenge for anyone's passkey (the browser lists the ones it holds). */
export async function passkeySignInOptions(ctx: AppContext, meta: ClientMeta): Promise<PasskeyOptions> {
  relyingParty(ctx);
  return requestOptions(ctx, await issueChallenge(ctx, "signin", { uid: 0, to: "", ip: meta.ip }));
}

/**
 * POST /auth/passkey: a session for the passkey's account. The passkey is both factors, so neither
 * a TOTP code nor the staff requirement's enrolment is asked; a banned account gets its appeal
 * session, as with the password.
 */
export async function passkeySignIn(ctx: AppContext, body: PasskeySignInBody, meta: ClientMeta): Promise<TokenResult> {
  const uid = await verifyAssertion(ctx, body.credential, { purpose: "signin", uid: 0, to: "" }, meta.ip);
  const user = await findUserByUid(ctx.db, uid);
  if (user?.status === UserStatus.Banned) {
    await recordLogin(direct(ctx), uid, meta.ip, meta.userAgent, { method: "passkey" });
    throw bannedError(user.ban_reason, await issueSession(ctx, uid, meta, ctx.db, "appeal"));
  }
  if (user?.status !== UserStatus.Active) throw refused("账号状态异常，请联系客服");
  return openSession(ctx, uid, meta, { method: "passkey" });
}

/** POST /auth/mfa/passkey/options: the second step's challenge → options for that account's passkeys. */
export async function passkeyMfaOptions(ctx: AppContext, challenge: string, meta: ClientMeta): Promise<PasskeyOptions> {
  relyingParty(ctx);
  const { uid, cid } = await secondStepOf(ctx, challenge);
  const mine = await passkeysOf(ctx.db, uid);
  if (mine.length === 0) throw refused("此账号没有通行密钥，请输入验证码");
  return requestOptions(ctx, await issueChallenge(ctx, "mfa", { uid, to: cid, ip: meta.ip }), mine);
}

/** POST /auth/mfa/passkey: the second step proven by one of the account's passkeys. */
export function passkeyMfa(ctx: AppContext, body: PasskeyMfaBody, meta: ClientMeta): Promise<TokenResult> {
  return finishSecondStep(ctx, body.challenge, meta, async (uid, cid) => {
    await verifyAssertion(ctx, body.credential, { purpose: "mfa", uid, to: cid }, meta.ip);
  });
}
