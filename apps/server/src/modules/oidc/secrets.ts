import { createHash } from "node:crypto";
import type { AppContext } from "../../context";
import { openText, sealText, secretKey } from "../../shared/secret-box";

/*
 * The providers' client secrets, encrypted at rest with AES-256-GCM under OIDC_SECRET_KEY (outside
 * production, a key generated once and kept in settings). Stored as "v1:<iv>:<tag>:<ciphertext>" (base64url).
 */

const SETTING = "oidc_secret_key";

/** What an operator sees adding a provider to a production console without OIDC_SECRET_KEY. */
export const OIDC_SECRET_MISSING =
  "服务端未配置第三方登录密钥的加密密钥（OIDC_SECRET_KEY），暂不能保存或使用第三方登录，请联系管理员";

// In production the key must come from the environment: one kept in the database beside the
// secrets it encrypts would be in every dump and backup with them.
const key = (ctx: AppContext): Promise<Buffer> =>
  secretKey(ctx, {
    env: ctx.config.OIDC_SECRET_KEY,
    setting: SETTING,
    derive: (secret) => createHash("sha256").update(`burrow-oidc:${secret}`).digest(),
    missing: OIDC_SECRET_MISSING,
  });

export async function encryptSecret(ctx: AppContext, plain: string): Promise<string> {
  return sealText(await key(ctx), plain);
}

/** @throws when the key changed since the secret was stored (the operator must enter it again). */
export async function decryptSecret(ctx: AppContext, stored: string): Promise<string> {
  return openText(await key(ctx), stored);
}
