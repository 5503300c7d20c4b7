import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import type { AppContext } from "../../context";
import { refused } from "../../http/errors";
import { randomToken } from "../../shared/ids";
import { getSetting, setSettingIfAbsent } from "../../shared/settings";

/*
 * The providers' client secrets, encrypted at rest with AES-256-GCM under OIDC_SECRET_KEY (outside
 * production, a key generated once and kept in settings). Stored as "v1:<iv>:<tag>:<ciphertext>" (base64url).
 */

const SETTING = "oidc_secret_key";

/** What an operator sees adding a provider to a production console without OIDC_SECRET_KEY. */
export const OIDC_SECRET_MISSING =
  "服务端未配置第三方登录密钥的加密密钥（OIDC_SECRET_KEY），暂不能保存或使用第三方登录，请联系管理员";

async function key(ctx: AppContext): Promise<Buffer> {
  // In production the key must come from the environment: one kept in the database beside the
  // secrets it encrypts would be in every dump and backup with them.
  if (!ctx.config.OIDC_SECRET_KEY && ctx.config.NODE_ENV === "production") throw refused(OIDC_SECRET_MISSING);
  let secret = ctx.config.OIDC_SECRET_KEY ?? (await getSetting(ctx.db, SETTING));
  if (!secret) secret = await setSettingIfAbsent(ctx.db, SETTING, randomToken(32));
  return createHash("sha256").update(`burrow-oidc:${secret}`).digest();
}

export async function encryptSecret(ctx: AppContext, plain: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", await key(ctx), iv);
  const ct = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), ct]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(":");
}

/** @throws when the key changed since the secret was stored (the operator must enter it again). */
export async function decryptSecret(ctx: AppContext, stored: string): Promise<string> {
  const [v, iv, tag, ct] = stored.split(":");
  if (v !== "v1" || !iv || !tag || ct === undefined) throw new Error("unknown secret format");
  const decipher = createDecipheriv("aes-256-gcm", await key(ctx), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ct, "base64url")), decipher.final()]).toString("utf8");
}
