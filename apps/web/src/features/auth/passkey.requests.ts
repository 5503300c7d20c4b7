import type { PasskeyOptions, TokenResult } from "@burrow/contract";
import { request } from "@/api/transport";

// The passkey sign-in's calls, light like login.requests.ts (passkey.requests.test.ts checks them
// against the contract). The WebAuthn browser library is loaded only when a passkey is used.

/** AuthApi.postAuthPasskeyOptions */
export const PASSKEY_OPTIONS_REQUEST = { method: "POST", url: "/auth/passkey/options" } as const;
/** AuthApi.postAuthPasskey */
export const PASSKEY_REQUEST = { method: "POST", url: "/auth/passkey" } as const;
/** AuthApi.postAuthMfaPasskeyOptions */
export const MFA_PASSKEY_OPTIONS_REQUEST = { method: "POST", url: "/auth/mfa/passkey/options" } as const;
/** AuthApi.postAuthMfaPasskey */
export const MFA_PASSKEY_REQUEST = { method: "POST", url: "/auth/mfa/passkey" } as const;

/**
 * Hands the server's options to navigator.credentials.get() and answers the browser's response
 * as JSON. A user who cancels (or a browser without passkeys) throws with a Chinese message.
 */
export async function answerWithPasskey(options: PasskeyOptions["options"]): Promise<Record<string, unknown>> {
  const { startAuthentication } = await import("@simplewebauthn/browser");
  try {
    // The server's options are PublicKeyCredentialRequestOptionsJSON, as the library takes them.
    const r = await startAuthentication({ optionsJSON: options as never });
    return { ...r };
  } catch (error) {
    throw passkeyBrowserError(error);
  }
}

/** navigator.credentials.create() over the server's registration options. */
export async function createPasskey(options: PasskeyOptions["options"]): Promise<Record<string, unknown>> {
  const { startRegistration } = await import("@simplewebauthn/browser");
  try {
    const r = await startRegistration({ optionsJSON: options as never });
    return { ...r };
  } catch (error) {
    throw passkeyBrowserError(error);
  }
}

/** What the browser's refusal means to the user: cancelled, already registered, or not supported. */
function passkeyBrowserError(error: unknown): Error {
  const name = error instanceof Error ? error.name : "";
  const code = (error as { code?: string } | null)?.code ?? "";
  if (code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED" || name === "InvalidStateError")
    return new Error("此设备上已经有本账号的通行密钥");
  if (name === "NotAllowedError" || name === "AbortError") return new Error("已取消，或设备未能完成验证");
  if (name === "SecurityError") return new Error("当前网址不能使用通行密钥（请通过站点的正式地址访问）");
  if (name === "NotSupportedError") return new Error("此浏览器或设备不支持通行密钥");
  return new Error(error instanceof Error && error.message ? error.message : "通行密钥操作失败");
}

/** The usernameless sign-in: options, the browser's answer, the session. */
export async function signInWithPasskey(): Promise<TokenResult> {
  const { options } = await request<PasskeyOptions>(PASSKEY_OPTIONS_REQUEST);
  const credential = await answerWithPasskey(options);
  return request<TokenResult>({ ...PASSKEY_REQUEST, body: { credential } });
}

/** The second step with a passkey: options for the challenge's account, the answer, the session. */
export async function secondFactorWithPasskey(challenge: string): Promise<TokenResult> {
  const { options } = await request<PasskeyOptions>({ ...MFA_PASSKEY_OPTIONS_REQUEST, body: { challenge } });
  const credential = await answerWithPasskey(options);
  return request<TokenResult>({ ...MFA_PASSKEY_REQUEST, body: { challenge, credential } });
}
