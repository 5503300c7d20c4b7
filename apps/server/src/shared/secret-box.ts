import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { AppContext } from "../context";
import { refused } from "./errors";
import { randomToken } from "./ids";
import { setSettingIfAbsent } from "./settings";

/*
 * Data at rest under AES-256-GCM (OpenID Connect client secrets, identity-verification evidence).
 * The key comes from a secret in the environment; outside production, when it is unset, from one
 * generated once and kept in settings (a development convenience: it then lies beside what it
 * protects, in every dump and backup). In production such a key is refused with the caller's
 * message naming the variable.
 */

/** Where a key's secret material comes from and how the AES key is derived from it. */
export interface SecretKeySource {
  /** the secret from the environment, when set */
  env: string | undefined;
  /** settings key of the secret generated outside production */
  setting: string;
  /** the 32-byte AES key of the secret (a hash or HKDF bound to the use) */
  derive: (secret: string) => Buffer;
  /** what the caller is told in production while `env` is unset */
  missing: string;
}

/** The AES-256 key of a source. @throws refused(source.missing) in production without the env secret. */
export async function secretKey(ctx: AppContext, source: SecretKeySource): Promise<Buffer> {
  if (source.env) return source.derive(source.env);
  if (ctx.config.NODE_ENV === "production") throw refused(source.missing);
  return source.derive(await setSettingIfAbsent(ctx.db, source.setting, randomToken(32)));
}

/** Whether a source can give a key (false only in production without its env secret). */
export const secretKeyAvailable = (ctx: AppContext, source: Pick<SecretKeySource, "env">): boolean =>
  Boolean(source.env) || ctx.config.NODE_ENV !== "production";

const IV = 12;
const TAG = 16;

/**
 * Encrypts bytes: iv (12) ‖ tag (16) ‖ ciphertext. `aad` binds the blob to what it is for (a row,
 * a file name), so that it cannot be moved elsewhere and still decrypt.
 */
export function sealBytes(key: Buffer, plain: Buffer, aad?: string): Buffer {
  const iv = randomBytes(IV);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  if (aad !== undefined) cipher.setAAD(Buffer.from(aad, "utf8"));
  const ct = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ct]);
}

/** @throws when the key or `aad` differ, or the blob was altered or cut. */
export function openBytes(key: Buffer, sealed: Buffer, aad?: string): Buffer {
  if (sealed.length < IV + TAG) throw new Error("sealed data too short");
  const decipher = createDecipheriv("aes-256-gcm", key, sealed.subarray(0, IV));
  if (aad !== undefined) decipher.setAAD(Buffer.from(aad, "utf8"));
  decipher.setAuthTag(sealed.subarray(IV, IV + TAG));
  return Buffer.concat([decipher.update(sealed.subarray(IV + TAG)), decipher.final()]);
}

/**
 * Between the parts of a stored text: ":" for what was written since secret-box exists; "." is
 * what the certificate keys were stored with before (modules/ssl), kept so that they still open.
 */
export type TextSeparator = ":" | ".";

/** Encrypts text for a text column: "v1:<iv>:<tag>:<ciphertext>" (base64url). */
export function sealText(key: Buffer, plain: string, aad?: string, sep: TextSeparator = ":"): string {
  const b = sealBytes(key, Buffer.from(plain, "utf8"), aad);
  return ["v1", b.subarray(0, IV), b.subarray(IV, IV + TAG), b.subarray(IV + TAG)]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(sep);
}

/** @throws on an unknown format, another key or `aad`, or an altered value. */
export function openText(key: Buffer, stored: string, aad?: string, sep: TextSeparator = ":"): string {
  const [v, iv, tag, ct] = stored.split(sep);
  if (v !== "v1" || !iv || !tag || ct === undefined) throw new Error("unknown secret format");
  const [ivB, tagB, ctB] = [iv, tag, ct].map((p) => Buffer.from(p, "base64url"));
  if (ivB.length !== IV || tagB.length !== TAG) throw new Error("unknown secret format");
  return openBytes(key, Buffer.concat([ivB, tagB, ctB]), aad).toString("utf8");
}
