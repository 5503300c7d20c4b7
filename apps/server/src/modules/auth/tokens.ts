import { createHmac, type KeyObject, timingSafeEqual } from "node:crypto";

/** What a session token says, once its signature is checked: the user, the session, the expiry (epoch s). */
export interface TokenClaims {
  uid: number;
  sid: string;
  exp: number;
}

/** Why a token is refused: not a valid token of ours, or one whose time is up. */
export type TokenError = "invalid" | "expired";

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const utf8 = new TextDecoder("utf-8", { fatal: true });

function jsonObject(segment: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(utf8.decode(Buffer.from(segment, "base64url")));
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Verifies a compact HS256 JWT the way jose's `jwtVerify(token, key, { algorithms: ["HS256"] })`
 * does, synchronously with node:crypto (jose goes through WebCrypto's promises, several times the
 * CPU on every authenticated request): three base64url parts; a header that is a JSON object with
 * `alg` exactly HS256, no `crit`, no unencoded payload (`b64`); the HMAC-SHA256 signature compared
 * in constant time with its canonical encoding; a payload object whose `nbf`/`iat` are numbers when
 * present, `nbf` not in the future and `exp` a number in the future — then our own claims, `sub`
 * a user id and `sid` a string. Claims are read only once the signature holds, so a forged token
 * is "invalid" whatever it says (an expired forged one too).
 */
export function verifyToken(token: string, key: KeyObject, nowMs = Date.now()): TokenClaims | TokenError {
  const parts = token.split(".");
  if (parts.length !== 3) return "invalid";
  const [h, p, s] = parts as [string, string, string];
  if (!BASE64URL.test(h) || !BASE64URL.test(p) || !BASE64URL.test(s)) return "invalid";
  const header = jsonObject(h);
  if (header?.alg !== "HS256" || header.crit !== undefined || (header.b64 !== undefined && header.b64 !== true))
    return "invalid";
  const expected = Buffer.from(createHmac("sha256", key).update(`${h}.${p}`).digest("base64url"));
  const presented = Buffer.from(s);
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return "invalid";
  const claims = jsonObject(p);
  if (!claims) return "invalid";
  const { exp, nbf, iat, sub, sid } = claims;
  const now = Math.floor(nowMs / 1000);
  if (iat !== undefined && typeof iat !== "number") return "invalid";
  if (nbf !== undefined && (typeof nbf !== "number" || nbf > now)) return "invalid";
  // Every token Burrow issues carries exp; one without is not ours.
  if (typeof exp !== "number" || !Number.isFinite(exp)) return "invalid";
  if (exp <= now) return "expired";
  const uid = typeof sub === "string" && /^[1-9]\d{0,15}$/.test(sub) ? Number(sub) : Number.NaN;
  if (!Number.isSafeInteger(uid) || typeof sid !== "string" || sid === "") return "invalid";
  return { uid, sid, exp };
}

/**
 * Verified tokens by their exact text, so a client presenting the same token again costs a map
 * lookup instead of an HMAC and two JSON parses. Only tokens that verified are kept (garbage cannot
 * push real ones out), at most `max` (the oldest go first), each until its own `exp`.
 */
export class TokenCache {
  private readonly verified = new Map<string, TokenClaims>();

  constructor(
    private readonly key: KeyObject,
    private readonly max = 20_000,
  ) {}

  verify(token: string, nowMs = Date.now()): TokenClaims | TokenError {
    const hit = this.verified.get(token);
    if (hit) {
      if (hit.exp > Math.floor(nowMs / 1000)) return hit;
      this.verified.delete(token);
      return "expired";
    }
    const r = verifyToken(token, this.key, nowMs);
    if (typeof r === "string") return r;
    if (this.verified.size >= this.max) this.verified.delete(this.verified.keys().next().value as string);
    this.verified.set(token, r);
    return r;
  }

  get size(): number {
    return this.verified.size;
  }
}
