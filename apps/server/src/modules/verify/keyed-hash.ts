import { createHmac } from "node:crypto";
import type { AppContext } from "../../context";
import { randomToken } from "../../shared/ids";
import { getSetting, setSettingIfAbsent } from "../../shared/settings";

/*
 * The keyed hashes a verification is compared by (docs/verify.md): HMAC-SHA256 under one secret,
 * VERIFY_ID_SECRET, or outside it one generated once into settings `verify_id_secret`. Equal
 * values collide, the value cannot be read back, and without the secret nobody can try names or
 * numbers against a copy of the database. Changing the secret makes every stored hash stale.
 */

const SECRET_KEY = "verify_id_secret";

/** The secret of the hashes: VERIFY_ID_SECRET, or one generated once and kept in settings (first writer wins). */
export async function verifySecret(ctx: AppContext): Promise<string> {
  if (ctx.config.VERIFY_ID_SECRET) return ctx.config.VERIFY_ID_SECRET;
  return (await getSetting(ctx.db, SECRET_KEY)) ?? setSettingIfAbsent(ctx.db, SECRET_KEY, randomToken(48));
}

const keyedHash = (secret: string, value: string): string =>
  createHmac("sha256", secret).update(value, "utf8").digest("hex");

/** The hash under which an ID number is held. */
export const idHash = (secret: string, idNumber: string): string => keyedHash(secret, idNumber.toUpperCase());

/**
 * A name as compared: NFKC (full-width letters and spaces become plain ones), no whitespace, the
 * middle dots of minority and foreign names (·, •, ・, ‧, ．, .) as one, letters upper-case.
 */
export const normaliseName = (name: string): string =>
  name
    .normalize("NFKC")
    .replace(/\s+/gu, "")
    .replace(/[·•・‧.．]/gu, "·")
    .toUpperCase();

/**
 * The hash of a full name (the verified one, a payee's). Its input never looks like an ID number
 * (a name has no digits), so the two hashes cannot be mistaken for each other.
 */
export const nameHash = (secret: string, name: string): string => keyedHash(secret, normaliseName(name));
