import type { PasskeyOptions, WebAuthnCredentialJson } from "@burrow/contract";
import type { AppContext } from "../../context";
import type { Principal } from "../../shared/auth";
import { refused } from "../../shared/errors";
import { requestOptions, verifyAssertion } from "./passkey-signin";
import { SESSION_KIND } from "./sessions";
import { issueChallenge, passkeysOf, relyingParty } from "./webauthn";

/*
 * A passkey confirming an act of a signed-in session, as a TOTP code does (the account's deletion):
 * a challenge bound to that session and account, answered by one of the account's passkeys,
 * verified like the sign-in's second step (single use, counter, origin, the same failure limits).
 */

function sessionOf(caller: Principal): string {
  if (caller.kind !== SESSION_KIND) throw refused("请在控制台登录后使用通行密钥验证");
  return caller.credentialId;
}

/** Options for the caller's passkeys, the challenge bound to the caller's session. */
export async function passkeyConfirmOptions(ctx: AppContext, caller: Principal, ip: string): Promise<PasskeyOptions> {
  relyingParty(ctx);
  const to = sessionOf(caller);
  const mine = await passkeysOf(ctx.db, caller.uid);
  if (mine.length === 0) throw refused("此账号没有通行密钥");
  return requestOptions(ctx, await issueChallenge(ctx, "confirm", { uid: caller.uid, to, ip }), mine);
}

/** Checks the browser's answer to those options: throws 400 naming `credential` unless one of the caller's passkeys signed it. */
export async function checkPasskeyConfirm(
  ctx: AppContext,
  caller: Principal,
  credential: WebAuthnCredentialJson,
  ip: string,
): Promise<void> {
  await verifyAssertion(ctx, credential, { purpose: "confirm", uid: caller.uid, to: sessionOf(caller) }, ip);
}
