import type { LoginBody, RegisterBody, ResetBody, SmsBody } from "@burrow/contract";
import { AuthApi } from "@burrow/contract";
import { api } from "@/api/client";

/** POST /auth/sms: sends a six-digit code to the phone for the given scene. */
export const sendSmsCode = (body: SmsBody) => api.call(AuthApi.postAuthSms, { body });

/** POST /auth/login */
export const login = (body: LoginBody) => api.call(AuthApi.postAuthLogin, { body });

/** POST /auth/register */
export const register = (body: RegisterBody) => api.call(AuthApi.postAuthRegister, { body });

/** POST /auth/reset */
export const resetPassword = (body: ResetBody) => api.call(AuthApi.postAuthReset, { body });

/** POST /auth/logout; the session may already be gone, so no redirect on 3000x. */
export const logout = () => api.call(AuthApi.postAuthLogout, {}, { skipAuthRedirect: true });
