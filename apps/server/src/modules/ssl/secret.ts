import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import type { AppContext } from "../../context";
import { refused } from "../../http/errors";
import { randomToken } from "../../shared/ids";
import { setSettingIfAbsent } from "../../shared/settings";

/**
 * Private keys at rest (certificate keys, the ACME account key): AES-256-GCM under a key derived
 * (HKDF-SHA256) from SSL_KEY_SECRET. Stored as `v1.<iv>.<tag>.<ciphertext>` (base64url); the
 * associated data binds a blob to what it is for (`cert:<domain>`…), so a stored key cannot be
 * moved to another row and decrypt there.
 *
 * SSL_KEY_SECRET unset: outside production a secret is generated once and kept in settings (a
 * development convenience — it then lies next to what it protects); in production every call
 * that would store or read a key is refused with a message naming the variable.
 */
const SETTING = "ssl_key_secret";
const keys = new WeakMap<AppContext, Buffer>();

export const SSL_SECRET_MISSING = "服务端未配置证书私钥加密密钥（SSL_KEY_SECRET），暂不能上传或签发证书，请联系管理员";

async function keyOf(ctx: AppContext): Promise<Buffer> {
  const cached = keys.get(ctx);
  if (cached) return cached;
  let secret = ctx.config.SSL_KEY_SECRET;
  if (!secret) {
    if (ctx.config.NODE_ENV === "production") throw refused(SSL_SECRET_MISSING);
    secret = await setSettingIfAbsent(ctx.db, SETTING, randomToken(48));
  }
  const key = Buffer.from(hkdfSync("sha256", secret, "burrow-ssl", "private-keys-v1", 32));
  keys.set(ctx, key);
  return key;
}

/** Whether keys can be stored (false only in production without SSL_KEY_SECRET). */
export const secretAvailable = (ctx: AppContext): boolean =>
  Boolean(ctx.config.SSL_KEY_SECRET) || ctx.config.NODE_ENV !== "production";

export async function sealKey(ctx: AppContext, plain: string, purpose: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", await keyOf(ctx), iv);
  cipher.setAAD(Buffer.from(purpose));
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

/** Decrypts a sealed key; throws when the secret changed or the blob was tampered with or moved. */
export async function openKey(ctx: AppContext, sealed: string, purpose: string): Promise<string> {
  const [v, iv, tag, body] = sealed.split(".");
  if (v !== "v1" || !iv || !tag || body === undefined) throw new Error("ssl: not a sealed key");
  const decipher = createDecipheriv("aes-256-gcm", await keyOf(ctx), Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(purpose));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}
