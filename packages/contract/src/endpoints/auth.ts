import { LoginBody, RegisterBody, ResetBody, SmsBody, type TokenResult } from "../auth";
import { endpoint } from "../endpoint";
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
} as const;
