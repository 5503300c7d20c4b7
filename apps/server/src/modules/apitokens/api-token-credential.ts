import { timingSafeEqual } from "node:crypto";
import { API_TOKEN_PREFIX, ErrorCode, Role, UserStatus } from "@burrow/contract";
import type { AppContext } from "../../context";
import type { CredentialKind, Principal } from "../../shared/auth";
import { AppError, rateLimited } from "../../shared/errors";
import { findApiToken, hashSecret, parseApiToken, scopesOf, touchApiToken } from "./api-tokens.service";

/** The kind's name on ctx.auth (Principal.kind). */
export const TOKEN_KIND = "token";
/** Calls per token per minute, across processes (ctx.limiter is Redis-backed where configured). */
export const CALLS_PER_MINUTE = 60;

const refusedToken = (code: number, msg: string) => new AppError(code, 401, msg);

/**
 * API tokens as a credential kind of ctx.auth (CONTRIBUTING.md "Adding a credential kind"): one
 * primary-key read by the token's public id, a constant-time compare of the secret's hash, and no
 * cache, so a revocation or expiry holds from the next call in every process.
 */
export function apiTokenCredential(ctx: AppContext): CredentialKind {
  return {
    name: TOKEN_KIND,
    claims: (bearer) => bearer.startsWith(API_TOKEN_PREFIX),
    authenticate: async (bearer, meta): Promise<Principal> => {
      const parsed = parseApiToken(bearer);
      const row = parsed && (await findApiToken(ctx.db, parsed.id));
      if (!parsed || !row || !timingSafeEqual(hashSecret(parsed.secret), Buffer.from(row.secret_hash, "hex")))
        throw refusedToken(ErrorCode.TokenMissing, "API 令牌无效");
      if (row.revoked_at !== null) throw refusedToken(ErrorCode.SessionRevoked, "API 令牌已撤销");
      if (row.expires_at !== null && Date.parse(row.expires_at) <= Date.now())
        throw refusedToken(ErrorCode.TokenExpired, "API 令牌已过期");
      // The owner's role and status as the session kind reads them (cached briefly, dropped on user.changed).
      const access = await ctx.sessions.access(row.uid);
      if (access?.status !== UserStatus.Active)
        throw refusedToken(ErrorCode.SessionRevoked, "账号不可用，API 令牌已失效");
      const limit = await ctx.limiter.hit(`apitoken:${row.id}`, CALLS_PER_MINUTE, 60);
      if (!limit.allowed) throw rateLimited(limit.retryAfterSec);
      if (meta) await touchApiToken(ctx.db, row, meta.ip);
      return {
        uid: row.uid,
        // A token acts as a customer whatever its owner's role: its scopes reach customer endpoints only.
        role: Role.Customer,
        kind: TOKEN_KIND,
        credentialId: row.id,
        scopes: new Set(scopesOf(row.scopes)),
        label: "API 令牌",
      };
    },
  };
}
