import type { LoginBody, OidcProviderPublic, OidcStartResult, SiteInfo, TokenResult } from "@burrow/contract";
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
