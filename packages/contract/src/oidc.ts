import { z } from "zod";
import { Phone, SmsCode } from "./common";
import { Id } from "./nodes";

/*
 * Sign-in with an OpenID Connect provider (SPEC /callback/auth; docs/oidc.md). Operators configure
 * providers under /super/oidc; customers sign in or bind them; the browser finishes the flow on
 * /callback/auth, which posts the provider's answer to POST /auth/oidc/callback.
 */

/** A provider as the sign-in page sees it: GET /auth/oidc/providers (enabled ones only). */
export interface OidcProviderPublic {
  id: number;
  name: string;
}

/** A provider as the operator sees it: never the client secret, only whether one is stored. */
export interface OidcProviderRow {
  id: number;
  name: string;
  issuer: string;
  client_id: string;
  has_secret: boolean;
  scopes: string;
  enabled: boolean;
  created_at: string;
  updated_at: string;
}

/** https issuers; http only on loopback (a provider on the same machine, or a test). */
const Issuer = z
  .url({ protocol: /^https?$/, error: "请输入 http(s) 地址" })
  .max(300)
  .refine((u) => {
    const url = new URL(u);
    if (url.search || url.hash || url.username || url.password) return false;
    return url.protocol === "https:" || ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
  }, "签发者地址须为 https（仅本机地址可用 http），且不含查询参数");

const providerFields = {
  name: z.string().trim().min(1, "请输入显示名称").max(32, "显示名称最多 32 个字符"),
  issuer: Issuer,
  client_id: z.string().trim().min(1, "请输入 Client ID").max(200),
  /** space-separated; always includes openid */
  scopes: z
    .string()
    .trim()
    .max(200)
    .regex(/^[\w:./-]+( [\w:./-]+)*$/, "范围以空格分隔")
    .refine((s) => s.split(" ").includes("openid"), "范围须包含 openid"),
  enabled: z.boolean(),
};

/** POST /super/oidc */
export const CreateOidcProviderBody = z.object({
  ...providerFields,
  client_secret: z.string().min(1, "请输入 Client Secret").max(500),
  scopes: providerFields.scopes.default("openid"),
  enabled: providerFields.enabled.default(true),
});
export type CreateOidcProviderBody = z.infer<typeof CreateOidcProviderBody>;

/** PATCH /super/oidc: an empty or missing client_secret keeps the stored one. */
export const UpdateOidcProviderBody = z.object({
  id: Id,
  name: providerFields.name.optional(),
  issuer: providerFields.issuer.optional(),
  client_id: providerFields.client_id.optional(),
  client_secret: z.preprocess((v) => (v === "" ? undefined : v), z.string().max(500).optional()),
  scopes: providerFields.scopes.optional(),
  enabled: providerFields.enabled.optional(),
});
export type UpdateOidcProviderBody = z.infer<typeof UpdateOidcProviderBody>;

/** DELETE /super/oidc (body) */
export const DeleteOidcProviderBody = z.object({ id: Id });

/** GET /auth/oidc/start */
export const OidcStartQuery = z.object({ provider: z.coerce.number().int().min(1) });

/** POST /user/oidc/bind */
export const OidcBindBody = z.object({ provider: Id });

/** Where the browser goes next: the provider's authorization URL. */
export interface OidcStartResult {
  url: string;
}

/**
 * POST /auth/oidc/callback: the query the provider sent to /callback/auth, passed on as it came
 * (code + state + iss, or error + error_description + state).
 */
export const OidcCallbackBody = z.object({
  state: z.string().min(1, "缺少 state").max(200),
  code: z.string().max(2000).optional(),
  iss: z.string().max(300).optional(),
  error: z.string().max(100).optional(),
  error_description: z.string().max(500).optional(),
  session_state: z.string().max(500).optional(),
});
export type OidcCallbackBody = z.infer<typeof OidcCallbackBody>;

/**
 * What the callback did: signed in (`token`), bound the provider to the signed-in account, or found
 * an identity bound to no account yet (`ticket`: link to an account by SMS, or create one).
 */
export type OidcCallbackResult =
  | { kind: "session"; token: string; expires_at: string }
  | { kind: "bound"; provider: string }
  | { kind: "unlinked"; ticket: string; provider: string; expires_at: string };

/** POST /auth/oidc/link: binds the pending identity to the account of this phone, proven by an SMS code (scene login). */
export const OidcLinkBody = z.object({ ticket: z.string().min(10).max(100), phone: Phone, code: SmsCode });
export type OidcLinkBody = z.infer<typeof OidcLinkBody>;

/** POST /auth/oidc/register: creates an account for the pending identity (it needs a phone before buying or creating tunnels). */
export const OidcRegisterBody = z.object({ ticket: z.string().min(10).max(100) });
export type OidcRegisterBody = z.infer<typeof OidcRegisterBody>;

/** GET /user/oidc: the customer's bindings, one per provider. */
export interface OidcBindingView {
  provider_id: number;
  provider: string;
  created_at: string;
}

/** DELETE /user/oidc (body) */
export const OidcUnbindBody = z.object({ provider: Id });
