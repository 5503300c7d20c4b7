import type {
  LoginBody,
  MfaSetupResult,
  OidcProviderPublic,
  OidcStartResult,
  SiteInfo,
  TokenResult,
  TotpEnrolment,
} from "@burrow/contract";
import { request } from "@/api/transport";

// /login's two calls through the client's fetch core rather than `api.call(AuthApi…)`: the contract's
// endpoint entries carry zod schemas, which the sign-in page's first load must not download.
// login.requests.test.ts checks these against the contract's entries.

/** AuthApi.postAuthLogin */
export const LOGIN_REQUEST = { method: "POST", url: "/auth/login" } as const;
/** SiteApi.getPublicSite */
export const SITE_REQUEST = { method: "GET", url: "/public/site" } as const;

/** OidcApi.getAuthOidcProviders */
export const OIDC_PROVIDERS_REQUEST = { method: "GET", url: "/auth/oidc/providers" } as const;
/** OidcApi.getAuthOidcStart */
export const OIDC_START_REQUEST = { method: "GET", url: "/auth/oidc/start" } as const;

/** AuthApi.postAuthMfa */
export const MFA_REQUEST = { method: "POST", url: "/auth/mfa" } as const;
/** AuthApi.postAuthMfaSetup */
export const MFA_SETUP_REQUEST = { method: "POST", url: "/auth/mfa/setup" } as const;
/** AuthApi.postAuthMfaSetupConfirm */
export const MFA_SETUP_CONFIRM_REQUEST = { method: "POST", url: "/auth/mfa/setup/confirm" } as const;

/** POST /auth/login */
export const signIn = (body: LoginBody) => request<TokenResult>({ ...LOGIN_REQUEST, body });

/** GET /public/site */
export const fetchSite = (signal?: AbortSignal) => request<SiteInfo>(SITE_REQUEST, { signal });

/** GET /auth/oidc/providers: the enabled providers for the sign-in buttons (id and name) */
export const fetchOidcProviders = (signal?: AbortSignal) =>
  request<OidcProviderPublic[]>(OIDC_PROVIDERS_REQUEST, { signal });

/** GET /auth/oidc/start: where to send the browser to sign in with a provider */
export const startOidcSignIn = (provider: number) =>
  request<OidcStartResult>(OIDC_START_REQUEST, { params: { provider } });

/** POST /auth/mfa: the sign-in's second step (the challenge of a 30006 answer and a code) */
export const verifySecondFactor = (body: { challenge: string; code: string }) =>
  request<TokenResult>({ ...MFA_REQUEST, body });

/** POST /auth/mfa/setup: the staff enrolment's new secret */
export const startMfaSetup = (challenge: string) =>
  request<TotpEnrolment>({ ...MFA_SETUP_REQUEST, body: { challenge } });

/** POST /auth/mfa/setup/confirm: the session and the recovery codes */
export const confirmMfaSetup = (body: { challenge: string; code: string }) =>
  request<MfaSetupResult>({ ...MFA_SETUP_CONFIRM_REQUEST, body });
