import { hkdfSync } from "node:crypto";
import type { AppContext } from "../../context";
import { refused } from "../../shared/errors";
import { openText, type SecretKeySource, sealText, secretKey, secretKeyAvailable } from "../../shared/secret-box";

/**
 * Private keys at rest (certificate keys, the ACME account key): AES-256-GCM (shared/secret-box)
 * under a key derived (HKDF-SHA256) from SSL_KEY_SECRET. Stored as `v1.<iv>.<tag>.<ciphertext>`
 * (base64url, "." between the parts as before secret-box existed, so stored keys still open);
 * the associated data binds a blob to what it is for (`cert:<domain>`…), so a stored key cannot
 * be moved to another row and decrypt there.
 *
 * SSL_KEY_SECRET unset: outside production a secret is generated once and kept in settings
 * `ssl_key_secret` (a development convenience — it then lies next to what it protects); in
 * production every call that would store or read a key is refused with a message naming the variable.
 */
export const SSL_SECRET_MISSING = "服务端未配置证书私钥加密密钥（SSL_KEY_SECRET），暂不能上传或签发证书，请联系管理员";

const source = (ctx: AppContext): SecretKeySource => ({
  env: ctx.config.SSL_KEY_SECRET,
  setting: "ssl_key_secret",
  derive: (secret) => Buffer.from(hkdfSync("sha256", secret, "burrow-ssl", "private-keys-v1", 32)),
  missing: SSL_SECRET_MISSING,
});

/**
 * The key, derived on each use like the other sealed secrets (oidc, verify evidence): keys are
 * sealed and opened on issues, uploads and downloads only, and a per-app cache would be one more
 * piece of state keyed by the context.
 */
const keyOf = (ctx: AppContext): Promise<Buffer> => secretKey(ctx, source(ctx));

/** Whether keys can be stored (false only in production without SSL_KEY_SECRET). */
export const secretAvailable = (ctx: AppContext): boolean => secretKeyAvailable(ctx, source(ctx));

export const sealKey = async (ctx: AppContext, plain: string, purpose: string): Promise<string> =>
  sealText(await keyOf(ctx), plain, purpose, ".");

/** Decrypts a sealed key; throws when the secret changed or the blob was tampered with or moved. */
export const openKey = async (ctx: AppContext, sealed: string, purpose: string): Promise<string> =>
  openText(await keyOf(ctx), sealed, purpose, ".");

/** What a sealed key is bound to: a customer's certificate for a domain, or an ACME order's key. */
export const certPurpose = (uid: number, domain: string) => `cert:${uid}:${domain}`;
export const orderPurpose = (uid: number, domain: string) => `order:${uid}:${domain}`;

/** Refuses (naming SSL_KEY_SECRET) a request that would store or read a key while none can be. */
export function requireSecret(ctx: AppContext): void {
  if (!secretAvailable(ctx)) throw refused(SSL_SECRET_MISSING);
}
