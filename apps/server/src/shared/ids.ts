import { randomBytes, randomInt } from "node:crypto";

const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** Random code from an unambiguous alphabet (invite codes, card numbers). */
export function randomCode(length: number): string {
  let s = "";
  for (let i = 0; i < length; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return s;
}

/** URL-safe random token of `bytes` bytes of entropy. */
export const randomToken = (bytes = 24): string => randomBytes(bytes).toString("base64url");

/** Six-digit numeric code. */
export const randomDigits = (n: number): string => Array.from({ length: n }, () => String(randomInt(10))).join("");
