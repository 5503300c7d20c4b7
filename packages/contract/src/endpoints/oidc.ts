import { z } from "zod";
import { TokenResultAnswer } from "../answers/auth";
import {
  OidcBindingViewAnswer,
  OidcCallbackResultAnswer,
  OidcProviderPublicAnswer,
  OidcProviderRowAnswer,
  OidcStartResultAnswer,
} from "../answers/oidc";
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
    answer: z.array(OidcProviderPublicAnswer),
    summary: "the enabled providers (id and display name) for the sign-in buttons",
  }),
  getAuthOidcStart: endpoint<OidcStartResult>()({
    method: "GET",
    url: "/auth/oidc/start",
    access: "public",
    answer: OidcStartResultAnswer,
    summary:
      "starts a sign-in (code flow, PKCE, state, nonce) bound to this browser by an httpOnly cookie; answers the provider's URL",
    query: OidcStartQuery,
  }),
  postAuthOidcCallback: endpoint<OidcCallbackResult>()({
    method: "POST",
    url: "/auth/oidc/callback",
    access: "public",
    answer: OidcCallbackResultAnswer,
    summary: "finishes a flow with the provider's answer to /callback/auth (single use, same browser)",
    body: OidcCallbackBody,
  }),
  postAuthOidcLink: endpoint<TokenResult>()({
    method: "POST",
    url: "/auth/oidc/link",
    access: "public",
    answer: TokenResultAnswer,
    summary: "binds a pending identity to the account of a phone proven by an SMS code (scene login); signs in",
    body: OidcLinkBody,
  }),
  postAuthOidcRegister: endpoint<TokenResult>()({
    method: "POST",
    url: "/auth/oidc/register",
    access: "public",
    answer: TokenResultAnswer,
    summary:
      "creates an account for a pending identity (a phone is needed before buying or creating tunnels); signs in",
    body: OidcRegisterBody,
  }),
  getUserOidc: endpoint<OidcBindingView[]>()({
    method: "GET",
    url: "/user/oidc",
    access: "user",
    answer: z.array(OidcBindingViewAnswer),
    summary: "the signed-in customer's provider bindings",
  }),
  postUserOidcBind: endpoint<OidcStartResult>()({
    method: "POST",
    url: "/user/oidc/bind",
    access: "user",
    answer: OidcStartResultAnswer,
    summary: "starts binding a provider to the signed-in account; answers the provider's URL",
    body: OidcBindBody,
  }),
  deleteUserOidc: endpoint<null>()({
    method: "DELETE",
    url: "/user/oidc",
    access: "user",
    answer: z.null(),
    summary: "unbinds a provider (refused when it is the account's last way to sign in)",
    body: OidcUnbindBody,
  }),
  getSuperOidc: endpoint<OidcProviderRow[]>()({
    method: "GET",
    url: "/super/oidc",
    access: "manager",
    answer: z.array(OidcProviderRowAnswer),
    summary: "the configured providers (the client secret is never answered)",
  }),
  postSuperOidc: endpoint<OidcProviderRow>()({
    method: "POST",
    url: "/super/oidc",
    access: "manager",
    answer: OidcProviderRowAnswer,
    summary: "adds a provider (its secret stored encrypted); audited",
    body: CreateOidcProviderBody,
  }),
  patchSuperOidc: endpoint<OidcProviderRow>()({
    method: "PATCH",
    url: "/super/oidc",
    access: "manager",
    answer: OidcProviderRowAnswer,
    summary: "changes a provider (an empty secret keeps the stored one); audited",
    body: UpdateOidcProviderBody,
  }),
  deleteSuperOidc: endpoint<null>()({
    method: "DELETE",
    url: "/super/oidc",
    access: "manager",
    answer: z.null(),
    summary: "deletes a provider and its bindings (refused while it is some account's only way to sign in); audited",
    body: DeleteOidcProviderBody,
  }),
} as const;
