import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/*
 * TOTP (RFC 6238 over RFC 4226 HOTP) with what every authenticator app defaults to: HMAC-SHA-1,
 * six digits, 30-second steps. Written with node:crypto rather than a package: it is this file.
 */

export const TOTP_STEP_SEC = 30;
const DIGITS = 6;
/** steps either side of now a code is still accepted: clocks drift and people type slowly */
const WINDOW = 1;
const B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function base32Encode(buf: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of buf) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += B32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += B32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=-]/g, "");
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const i = B32.indexOf(ch);
    if (i < 0) throw new Error("not base32");
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new secret: 160 bits (RFC 4226's recommended length), base32. */
export const newTotpSecret = (): string => base32Encode(randomBytes(20));

/** The HOTP value of one counter (RFC 4226 §5.3: dynamic truncation). */
export function hotp(secret: Buffer, counter: number): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac("sha1", secret).update(msg).digest();
  const offset = (mac[mac.length - 1] as number) & 0x0f;
  const bin = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(bin % 10 ** DIGITS).padStart(DIGITS, "0");
}

/** The step a time falls in. */
export const totpStep = (nowMs: number): number => Math.floor(nowMs / 1000 / TOTP_STEP_SEC);

/** The code of a base32 secret at a time (tests and the e2e compute codes with it). */
export const totpCode = (secretB32: string, nowMs = Date.now()): string =>
  hotp(base32Decode(secretB32), totpStep(nowMs));

/**
 * The step whose code `code` is, within ±1 step of now, or null. Every candidate is compared (in
 * constant time), so the answer's timing does not tell which step matched.
 */
export function matchTotp(secretB32: string, code: string, nowMs = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const key = base32Decode(secretB32);
  const now = totpStep(nowMs);
  let matched: number | null = null;
  for (let s = now - WINDOW; s <= now + WINDOW; s++) {
    if (timingSafeEqual(Buffer.from(hotp(key, s)), Buffer.from(code)) && matched === null) matched = s;
  }
  return matched;
}

/** The otpauth:// URI authenticator apps read from a QR code (Key Uri Format). */
export function otpauthUri(secretB32: string, issuer: string, account: string): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  const q = new URLSearchParams({ secret: secretB32, issuer, algorithm: "SHA1", digits: "6", period: "30" });
  return `otpauth://totp/${label}?${q.toString()}`;
}
