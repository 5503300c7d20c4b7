import { z } from "zod";
import { MfaChallenge } from "./mfa";

/*
 * Passkeys (WebAuthn, issue 34 §1): registered from 个人中心, used to sign in without a password
 * (discoverable credentials) and as the second factor where TOTP is asked. docs/security.md "Passkeys".
 */

/** A passkey's name, chosen by its owner ("办公室电脑"). */
export const PasskeyName = z.string().trim().min(1, "请输入名称").max(40, "名称最多 40 个字");

const B64Url = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]*$/, "格式错误");

/**
 * What the browser answers navigator.credentials.create()/get() with, as JSON (W3C
 * RegistrationResponseJSON / AuthenticationResponseJSON; @simplewebauthn/browser produces it).
 * Checked here for shape only; the server verifies the signature, challenge, origin and RP ID.
 */
export const WebAuthnCredentialJson = z.looseObject({
  id: B64Url.min(1, "缺少凭据 ID"),
  rawId: B64Url,
  type: z.literal("public-key"),
  response: z.looseObject({
    clientDataJSON: B64Url,
    attestationObject: B64Url.optional(),
    authenticatorData: B64Url.optional(),
    signature: B64Url.optional(),
    userHandle: B64Url.optional(),
    transports: z.array(z.string().max(32)).max(10).optional(),
  }),
  clientExtensionResults: z.looseObject({}).optional().default({}),
  authenticatorAttachment: z.string().max(32).optional(),
});
export type WebAuthnCredentialJson = z.infer<typeof WebAuthnCredentialJson>;

/** POST /user/passkeys: the browser's answer to the registration options, and a name. */
export const PasskeyRegisterBody = z.object({ name: PasskeyName, credential: WebAuthnCredentialJson });
export type PasskeyRegisterBody = z.infer<typeof PasskeyRegisterBody>;

/** PATCH /user/passkeys/:id */
export const PasskeyRenameBody = z.object({ name: PasskeyName });
export type PasskeyRenameBody = z.infer<typeof PasskeyRenameBody>;

export const PasskeyParams = z.object({ id: z.coerce.number().int().positive("通行密钥不存在") });
export type PasskeyParams = z.infer<typeof PasskeyParams>;

/** POST /auth/passkey: a passkey sign-in (no phone, no password). */
export const PasskeySignInBody = z.object({ credential: WebAuthnCredentialJson });
export type PasskeySignInBody = z.infer<typeof PasskeySignInBody>;

/** POST /auth/mfa/passkey/options: the second step's challenge (30006). */
export const PasskeyMfaOptionsBody = z.object({ challenge: MfaChallenge });
export type PasskeyMfaOptionsBody = z.infer<typeof PasskeyMfaOptionsBody>;

/** POST /auth/mfa/passkey: the second step with a passkey instead of a code. */
export const PasskeyMfaBody = z.object({ challenge: MfaChallenge, credential: WebAuthnCredentialJson });
export type PasskeyMfaBody = z.infer<typeof PasskeyMfaBody>;

/**
 * The options to hand to the browser unchanged (W3C PublicKeyCredentialCreationOptionsJSON or
 * PublicKeyCredentialRequestOptionsJSON, as @simplewebauthn/browser's startRegistration and
 * startAuthentication take them). Their challenge is single use and expires at `expires_at`.
 */
export interface PasskeyOptions {
  options: Record<string, unknown>;
  expires_at: string;
}

/** GET /user/passkeys: one registered passkey. */
export interface PasskeyInfo {
  id: number;
  name: string;
  /** how the browser reaches it: "internal", "usb", "hybrid", … */
  transports: string[];
  created_at: string;
  /** ISO; null when never used to sign in */
  last_used_at: string | null;
}
