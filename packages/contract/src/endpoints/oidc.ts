import type { TokenResult } from "../auth";
import { endpoint } from "../endpoint";
import {
  CreateOidcProviderBody,
  DeleteOidcProviderBody,
  OidcBindBody,
  type OidcBindingView,
  OidcCallbackBody,
  type OidcCallbackResult,
  OidcLinkBody,
  type OidcProviderPublic,
  type OidcProviderRow,
  OidcRegisterBody,
  OidcStartQuery,
  type OidcStartResult,
  OidcUnbindBody,
  UpdateOidcProviderBody,
} from "../oidc";

/** Sign-in with an OpenID Connect provider (see oidc.ts and docs/oidc.md). */
export const OidcApi = {
  getAuthOidcProviders: endpoint<OidcProviderPublic[]>()({
    method: "GET",
    url: "/auth/oidc/providers",
    access: "public",
    summary: "the enabled providers (id and display name) for the sign-in buttons",
  }),
  getAuthOidcStart: endpoint<OidcStartResult>()({
    method: "GET",
    url: "/auth/oidc/start",
    access: "public",
    summary:
      "starts a sign-in (code flow, PKCE, state, nonce) bound to this browser by an httpOnly cookie; answers the provider's URL",
    query: OidcStartQuery,
  }),
  postAuthOidcCallback: endpoint<OidcCallbackResult>()({
    method: "POST",
    url: "/auth/oidc/callback",
    access: "public",
    summary: "finishes a flow with the provider's answer to /callback/auth (single use, same browser)",
    body: OidcCallbackBody,
  }),
  postAuthOidcLink: endpoint<TokenResult>()({
    method: "POST",
    url: "/auth/oidc/link",
    access: "public",
    summary: "binds a pending identity to the account of a phone proven by an SMS code (scene login); signs in",
    body: OidcLinkBody,
  }),
  postAuthOidcRegister: endpoint<TokenResult>()({
    method: "POST",
    url: "/auth/oidc/register",
    access: "public",
    summary:
      "creates an account for a pending identity (a phone is needed before buying or creating tunnels); signs in",
    body: OidcRegisterBody,
  }),
  getUserOidc: endpoint<OidcBindingView[]>()({
    method: "GET",
    url: "/user/oidc",
    access: "user",
    summary: "the signed-in customer's provider bindings",
  }),
  postUserOidcBind: endpoint<OidcStartResult>()({
    method: "POST",
    url: "/user/oidc/bind",
    access: "user",
    summary: "starts binding a provider to the signed-in account; answers the provider's URL",
    body: OidcBindBody,
  }),
  deleteUserOidc: endpoint<null>()({
    method: "DELETE",
    url: "/user/oidc",
    access: "user",
    summary: "unbinds a provider (refused when it is the account's last way to sign in)",
    body: OidcUnbindBody,
  }),
  getSuperOidc: endpoint<OidcProviderRow[]>()({
    method: "GET",
    url: "/super/oidc",
    access: "manager",
    summary: "the configured providers (the client secret is never answered)",
  }),
  postSuperOidc: endpoint<OidcProviderRow>()({
    method: "POST",
    url: "/super/oidc",
    access: "manager",
    summary: "adds a provider (its secret stored encrypted); audited",
    body: CreateOidcProviderBody,
  }),
  patchSuperOidc: endpoint<OidcProviderRow>()({
    method: "PATCH",
    url: "/super/oidc",
    access: "manager",
    summary: "changes a provider (an empty secret keeps the stored one); audited",
    body: UpdateOidcProviderBody,
  }),
  deleteSuperOidc: endpoint<null>()({
    method: "DELETE",
    url: "/super/oidc",
    access: "manager",
    summary: "deletes a provider and its bindings (refused while it is some account's only way to sign in); audited",
    body: DeleteOidcProviderBody,
  }),
} as const;
