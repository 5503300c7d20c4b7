import { z } from "zod";
import type { Scope } from "./endpoint";

/**
 * What an API token may be given (docs/api-tokens.md): each endpoint a token may reach names one of
 * these as its `scope` in the endpoint table; everything else ("console", "admin") no token grants.
 */
export const ApiTokenScopes = [
  "tunnels:read",
  "tunnels:write",
  "traffic:read",
  "billing:read",
  "account:read",
] as const satisfies readonly Scope[];
export type ApiTokenScope = (typeof ApiTokenScopes)[number];

export const ApiTokenScopeLabel: Record<ApiTokenScope, string> = {
  "tunnels:read": "查看隧道",
  "tunnels:write": "创建、修改、删除隧道",
  "traffic:read": "查看流量与连接",
  "billing:read": "查看订单、余额流水与订阅",
  "account:read": "查看账户信息",
};

/** What every token starts with (secret scanners and the credential kind recognise it by this). */
export const API_TOKEN_PREFIX = "brw_";
/** A customer's live (neither revoked nor expired) tokens, at most. */
export const MAX_LIVE_API_TOKENS = 20;
/** The longest a token may live, in days. */
export const MAX_API_TOKEN_DAYS = 365;

export const CreateApiTokenBody = z.object({
  name: z.string().trim().min(1, "请输入令牌名称").max(40, "令牌名称最多 40 个字符"),
  scopes: z
    .array(z.enum(ApiTokenScopes, { message: "权限范围无效" }))
    .min(1, "请至少选择一个权限范围")
    .max(ApiTokenScopes.length)
    .transform((s) => [...new Set(s)]),
  /** days until it expires (1–365); null or absent: never */
  expires_days: z
    .number({ message: "有效期须为天数" })
    .int("有效期须为整数天")
    .min(1, "有效期至少 1 天")
    .max(MAX_API_TOKEN_DAYS, `有效期最长 ${MAX_API_TOKEN_DAYS} 天`)
    .nullable()
    .optional(),
});
export type CreateApiTokenBody = z.infer<typeof CreateApiTokenBody>;

export const ApiTokenIdParams = z.object({
  id: z
    .string()
    .trim()
    .regex(/^[0-9a-f]{16}$/, "令牌编号无效"),
});

/** One token as its owner sees it: never the secret (shown once, by the creation's answer). */
export interface ApiTokenView {
  /** the public part of the token (`brw_<id>_…`) */
  id: string;
  name: string;
  scopes: ApiTokenScope[];
  created_at: string;
  /** null: never expires */
  expires_at: string | null;
  last_used_at: string | null;
  last_used_ip: string | null;
  revoked_at: string | null;
}

/** POST /user/apiToken → data: the token itself, this once. */
export interface CreatedApiToken extends ApiTokenView {
  token: string;
}
