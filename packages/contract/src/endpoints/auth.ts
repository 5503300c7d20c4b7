import { LoginBody, RegisterBody, ResetBody, SmsBody, type TokenResult } from "../auth";
import { endpoint } from "../endpoint";
import {
  MfaSetupBody,
  MfaSetupConfirmBody,
  type MfaSetupResult,
  type MfaStatus,
  MfaVerifyBody,
  type RecoveryCodes,
  type SessionInfo,
  SessionParams,
  TotpCodeBody,
  TotpDisableBody,
  type TotpEnrolment,
} from "../mfa";
import {
  type PasskeyInfo,
  PasskeyMfaBody,
  PasskeyMfaOptionsBody,
  type PasskeyOptions,
  PasskeyParams,
  PasskeyRegisterBody,
  PasskeyRenameBody,
  PasskeySignInBody,
} from "../passkeys";
import { ChangePasswordBody, ChangePhoneBody } from "../users";

/** The auth endpoints (see endpoint.ts). */
export const AuthApi = {
  postAuthSms: endpoint<null>()({
    method: "POST",
    url: "/auth/sms",
    access: "public",
    summary: "sends a six-digit code to the phone for the given scene",
    body: SmsBody,
  }),
  postAuthRegister: endpoint<TokenResult>()({
    method: "POST",
    url: "/auth/register",
    access: "public",
    summary: "registers with the phone, its SMS code and a password; answers a session token",
    body: RegisterBody,
  }),
  postAuthLogin: endpoint<TokenResult>()({
    method: "POST",
    url: "/auth/login",
    access: "public",
    summary: "signs in with phone and password; answers a session token",
    body: LoginBody,
  }),
  postAuthReset: endpoint<null>()({
    method: "POST",
    url: "/auth/reset",
    access: "public",
    summary: "sets a new password with an SMS code (scene reset); revokes every session",
    body: ResetBody,
  }),
  postAuthLogout: endpoint<null>()({
    method: "POST",
    url: "/auth/logout",
    access: "public",
    summary: "revokes the session when the token is still valid (public: a dead token can always log out)",
  }),
  postUserPassword: endpoint<null>()({
    method: "POST",
    url: "/user/password",
    access: "user",
    summary: "changes the password; revokes every session, the current one too",
    body: ChangePasswordBody,
  }),
  postUserPhone: endpoint<null>()({
    method: "POST",
    url: "/user/phone",
    access: "user",
    summary: 'moves the account to a new phone (the code was sent to it with scene "phone")',
    body: ChangePhoneBody,
  }),
  postAuthMfa: endpoint<TokenResult>()({
    method: "POST",
    url: "/auth/mfa",
    access: "public",
    summary:
      "the second step of a sign-in: the challenge a password sign-in answered (30006) and an authenticator or recovery code; answers a session token",
    body: MfaVerifyBody,
  }),
  postAuthMfaSetup: endpoint<TotpEnrolment>()({
    method: "POST",
    url: "/auth/mfa/setup",
    access: "public",
    summary:
      "a staff member required to use a second factor: a new TOTP secret, with the setup challenge (30006, setup)",
    body: MfaSetupBody,
  }),
  postAuthMfaSetupConfirm: endpoint<MfaSetupResult>()({
    method: "POST",
    url: "/auth/mfa/setup/confirm",
    access: "public",
    summary:
      "confirms the setup challenge's secret with a code; answers a session token and the recovery codes (shown once)",
    body: MfaSetupConfirmBody,
  }),
  getUserMfa: endpoint<MfaStatus>()({
    method: "GET",
    url: "/user/mfa",
    access: "user",
    summary: "whether two-factor sign-in is on, unused recovery codes, whether the operator requires it",
  }),
  postUserMfaTotp: endpoint<TotpEnrolment>()({
    method: "POST",
    url: "/user/mfa/totp",
    access: "user",
    summary: "starts enabling TOTP: a new secret (not in force until confirmed with a code)",
  }),
  postUserMfaTotpConfirm: endpoint<RecoveryCodes>()({
    method: "POST",
    url: "/user/mfa/totp/confirm",
    access: "user",
    summary: "confirms the new secret with a code: TOTP is on; answers ten recovery codes, shown once",
    body: TotpCodeBody,
  }),
  postUserMfaRecoveryCodes: endpoint<RecoveryCodes>()({
    method: "POST",
    url: "/user/mfa/recovery-codes",
    access: "user",
    summary: "replaces the recovery codes (needs a current code); answers the new ten, shown once",
    body: TotpCodeBody,
  }),
  postUserMfaTotpDisable: endpoint<null>()({
    method: "POST",
    url: "/user/mfa/totp/disable",
    access: "user",
    summary:
      "turns TOTP off (needs a current or recovery code, or the password); refused while the operator requires it",
    body: TotpDisableBody,
  }),
  getUserSessions: endpoint<SessionInfo[]>()({
    method: "GET",
    url: "/user/sessions",
    access: "user",
    summary: "the account's signed-in devices: device, IP, created, last seen, the current one marked",
  }),
  deleteUserSession: endpoint<null>()({
    method: "DELETE",
    url: "/user/sessions/:sid",
    access: "user",
    summary: "signs one of the account's sessions out",
    params: SessionParams,
  }),
  postUserSessionsRevokeOthers: endpoint<null>()({
    method: "POST",
    url: "/user/sessions/revoke-others",
    access: "user",
    summary: "signs out every other session of the account",
  }),
  // Passkeys (WebAuthn): the options are handed to the browser, its answer comes back with the body.
  getUserPasskeys: endpoint<PasskeyInfo[]>()({
    method: "GET",
    url: "/user/passkeys",
    access: "user",
    summary: "the account's passkeys: name, transports, created, last used",
  }),
  postUserPasskeysOptions: endpoint<PasskeyOptions>()({
    method: "POST",
    url: "/user/passkeys/options",
    access: "user",
    summary: "registration options for a new passkey (challenge bound to this session, single use, 5 minutes)",
  }),
  postUserPasskeys: endpoint<PasskeyInfo>()({
    method: "POST",
    url: "/user/passkeys",
    access: "user",
    summary: "registers the passkey the browser created from the options, under a name (audited)",
    body: PasskeyRegisterBody,
  }),
  patchUserPasskey: endpoint<null>()({
    method: "PATCH",
    url: "/user/passkeys/:id",
    access: "user",
    summary: "renames one of the account's passkeys",
    params: PasskeyParams,
    body: PasskeyRenameBody,
  }),
  postUserPasskeyDelete: endpoint<null>()({
    method: "POST",
    url: "/user/passkeys/:id/delete",
    access: "user",
    summary:
      "deletes a passkey (needs the password or a current TOTP/recovery code; audited); refused for the last second factor the operator requires",
    params: PasskeyParams,
    body: TotpDisableBody,
  }),
  postAuthPasskeyOptions: endpoint<PasskeyOptions>()({
    method: "POST",
    url: "/auth/passkey/options",
    access: "public",
    summary: "options for signing in with a passkey (no phone: the browser offers the passkeys it holds)",
  }),
  postAuthPasskey: endpoint<TokenResult>()({
    method: "POST",
    url: "/auth/passkey",
    access: "public",
    summary: "signs in with a passkey (the browser's answer to /auth/passkey/options); answers a session token",
    body: PasskeySignInBody,
  }),
  postAuthMfaPasskeyOptions: endpoint<PasskeyOptions>()({
    method: "POST",
    url: "/auth/mfa/passkey/options",
    access: "public",
    summary: "the second step with a passkey: options for the account the challenge (30006) names",
    body: PasskeyMfaOptionsBody,
  }),
  postAuthMfaPasskey: endpoint<TokenResult>()({
    method: "POST",
    url: "/auth/mfa/passkey",
    access: "public",
    summary: "the second step with a passkey instead of a code; answers a session token",
    body: PasskeyMfaBody,
  }),
} as const;
