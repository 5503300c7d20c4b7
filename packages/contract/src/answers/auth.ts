import { z } from "zod";
import { int, time } from "../answers";

/* Answers of the auth endpoints: sign-in, second factors, sessions, passkeys (issue 34 §2). */

export const TokenResultAnswer = z.strictObject({
  token: z.string().describe("the session token (Authorization: Bearer …)"),
  expires_at: time(),
});

export const TotpEnrolmentAnswer = z.strictObject({
  secret: z.string().describe("base32, as authenticator apps take it by hand"),
  uri: z.string().describe("otpauth://totp/… for the QR code"),
});

export const RecoveryCodesAnswer = z.strictObject({
  recovery_codes: z.array(z.string()).describe("shown once"),
});

export const MfaSetupResultAnswer = TokenResultAnswer.extend(RecoveryCodesAnswer.shape);

export const MfaStatusAnswer = z.strictObject({
  totp_enabled: z.boolean(),
  enabled_at: time().nullable().describe("ISO time TOTP was confirmed, null when off"),
  recovery_codes_left: int(),
  required: z.boolean().describe("the operator requires a second factor for this account's role"),
  passkeys: int().describe("registered passkeys"),
});

export const SessionInfoAnswer = z.strictObject({
  id: z.string(),
  device: z.string().describe('from the user agent: "Chrome · Windows"'),
  ip: z.string(),
  created_at: time(),
  last_seen_at: time(),
  current: z.boolean().describe("the session this request came with"),
});

export const PasskeyInfoAnswer = z.strictObject({
  id: int(),
  name: z.string(),
  transports: z.array(z.string()).describe('"internal", "usb", "hybrid", …'),
  created_at: time(),
  last_used_at: time().nullable().describe("null when never used to sign in"),
});

export const PasskeyOptionsAnswer = z.strictObject({
  options: z
    .record(z.string(), z.unknown())
    .describe("PublicKeyCredentialCreationOptionsJSON or PublicKeyCredentialRequestOptionsJSON, for the browser"),
  expires_at: time(),
});
