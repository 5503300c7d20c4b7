import type { LoginBody, RegisterBody, ResetBody, SmsBody, TokenResult } from "@burrow/contract";
import { api } from "@/api/client";

/** POST /auth/sms: sends a six-digit code to the phone for the given scene. */
export const sendSmsCode = (body: SmsBody) => api.post<null>("/auth/sms", body);

/** POST /auth/login */
export const login = (body: LoginBody) => api.post<TokenResult>("/auth/login", body);

/** POST /auth/register */
export const register = (body: RegisterBody) => api.post<TokenResult>("/auth/register", body);

/** POST /auth/reset */
export const resetPassword = (body: ResetBody) => api.post<null>("/auth/reset", body);

/** POST /auth/logout; the session may already be gone, so no redirect on 3000x. */
export const logout = () => api.post<null>("/auth/logout", undefined, { skipAuthRedirect: true });
