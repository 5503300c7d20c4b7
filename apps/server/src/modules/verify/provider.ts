import { createHmac, timingSafeEqual } from "node:crypto";
import type { Config } from "../../config";
import { randomToken } from "../../shared/ids";

/**
 * Identity verification providers, behind one interface:
 *
 * - `sandbox` (development and tests; refused in production by config.ts) decides at once and
 *   deterministically from the name: a name containing "拒绝" is rejected, one containing "审核"
 *   stays processing until an operator reviews it, any other is done.
 * - `manual` (the production default without VERIFY_URL): every request stays processing until
 *   an operator approves or rejects it on the user's detail page.
 * - `redirect` (a real provider): Burrow sends the browser to VERIFY_URL with a signed request
 *   and the provider answers with a signed result, both on the browser's return
 *   (GET /api/verify/return) and server to server (POST /api/verify/notify).
 *
 * The redirect protocol signs an exact, ordered field list with HMAC-SHA256 (VERIFY_KEY):
 * `k1=enc(v1)&k2=enc(v2)…` where enc is encodeURIComponent, so no value can be read as another
 * field; a verifier refuses a missing, repeated or unexpected field.
 */

export type ProviderDecision =
  | { status: "done" }
  | { status: "rejected"; reason: string }
  | { status: "processing"; redirectUrl: string | null; requestId: string | null };

export interface VerifyProvider {
  kind: "sandbox" | "manual" | "redirect";
  /** Starts a verification of the (locally valid) name and number. */
  start(input: { realName: string; idNumber: string }): ProviderDecision;
}

/** The fields of a request to the provider, in signing order. */
export const REQUEST_FIELDS = [
  "merchant_id",
  "request_id",
  "real_name",
  "id_number",
  "return_url",
  "notify_url",
  "timestamp",
] as const;
/** The fields of the provider's result (return and notify), in signing order; `sign` besides. */
export const RESULT_FIELDS = ["merchant_id", "request_id", "status", "reason", "timestamp"] as const;
/** How old a signed result may be. */
const RESULT_MAX_AGE_S = 24 * 3600;

/** The exact string signed: each listed field, in order, as `k=encodeURIComponent(v)`, joined with "&". */
export function signingString(fields: readonly string[], params: Record<string, string>): string {
  return fields.map((k) => `${k}=${encodeURIComponent(params[k] ?? "")}`).join("&");
}

export function verifySign(fields: readonly string[], params: Record<string, string>, key: string): string {
  return createHmac("sha256", key).update(signingString(fields, params), "utf8").digest("hex");
}

/** The public base every link given to the provider starts from: PUBLIC_URL, never a request header. */
export const publicBase = (config: Config): string => (config.PUBLIC_URL ? config.PUBLIC_URL.replace(/\/+$/, "") : "");

export function providerKind(config: Config): VerifyProvider["kind"] {
  if (config.VERIFY_PROVIDER) return config.VERIFY_PROVIDER;
  if (config.NODE_ENV !== "production") return "sandbox";
  return config.VERIFY_URL ? "redirect" : "manual";
}

export function createProvider(config: Config): VerifyProvider {
  const kind = providerKind(config);
  // Without a provider account: every request waits for an operator's approve or reject.
  if (kind === "manual") return { kind, start: () => ({ status: "processing", redirectUrl: null, requestId: null }) };
  if (kind === "sandbox") {
    return {
      kind: "sandbox",
      start: ({ realName }) => {
        if (realName.includes("拒绝")) return { status: "rejected", reason: "沙箱：姓名与身份证号码不一致" };
        if (realName.includes("审核")) return { status: "processing", redirectUrl: null, requestId: null };
        return { status: "done" };
      },
    };
  }
  // config.ts has required these for the redirect provider.
  const key = config.VERIFY_KEY ?? "";
  const base = publicBase(config);
  return {
    kind: "redirect",
    start: ({ realName, idNumber }) => {
      const params: Record<string, string> = {
        merchant_id: config.VERIFY_MERCHANT_ID ?? "",
        request_id: `V${Date.now()}${randomToken(9)}`.replace(/[^A-Za-z0-9]/g, "0"),
        real_name: realName,
        id_number: idNumber,
        return_url: `${base}/api/verify/return`,
        notify_url: `${base}/api/verify/notify`,
        timestamp: String(Math.floor(Date.now() / 1000)),
      };
      const sign = verifySign(REQUEST_FIELDS, params, key);
      const query = new URLSearchParams({ ...params, sign, sign_type: "HMAC-SHA256" }).toString();
      const url = config.VERIFY_URL ?? "";
      return {
        status: "processing",
        redirectUrl: `${url}${url.includes("?") ? "&" : "?"}${query}`,
        requestId: params.request_id,
      };
    },
  };
}

export type ResultCheck =
  | { ok: true; requestId: string; status: "done" | "rejected" | "processing"; reason: string }
  | { ok: false; reason: string };

/**
 * Checks a provider result exactly: only RESULT_FIELDS plus `sign` (and `sign_type`), each once
 * (the caller passes null for a repeated field), our merchant id, a known status, a recent
 * timestamp and an HMAC over exactly those fields.
 */
export function checkResult(config: Config, params: Record<string, string> | null): ResultCheck {
  if (providerKind(config) !== "redirect") return { ok: false, reason: "no redirect provider is configured" };
  if (!params) return { ok: false, reason: "a parameter is repeated" };
  const allowed = new Set<string>([...RESULT_FIELDS, "sign", "sign_type"]);
  const extra = Object.keys(params).filter((k) => !allowed.has(k));
  if (extra.length) return { ok: false, reason: `unexpected parameters: ${extra.slice(0, 5).join(", ")}` };
  for (const k of ["merchant_id", "request_id", "status", "timestamp", "sign"] as const)
    if (!params[k]) return { ok: false, reason: `missing parameter ${k}` };
  if (params.sign_type !== undefined && params.sign_type !== "HMAC-SHA256")
    return { ok: false, reason: "unknown sign_type" };
  const expected = verifySign(RESULT_FIELDS, params, config.VERIFY_KEY ?? "");
  const given = params.sign.toLowerCase();
  if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected)))
    return { ok: false, reason: "bad signature" };
  if (params.merchant_id !== config.VERIFY_MERCHANT_ID) return { ok: false, reason: "another merchant's id" };
  const ts = Number(params.timestamp);
  if (!/^\d{1,12}$/.test(params.timestamp) || Math.abs(Date.now() / 1000 - ts) > RESULT_MAX_AGE_S)
    return { ok: false, reason: "stale or malformed timestamp" };
  const status = params.status;
  if (status !== "done" && status !== "rejected" && status !== "processing")
    return { ok: false, reason: "unknown status" };
  return { ok: true, requestId: params.request_id, status, reason: (params.reason ?? "").slice(0, 200) };
}
