import { createHash, timingSafeEqual } from "node:crypto";
import { fenToYuan } from "@burrow/contract";
import { type Config, payGatewayKind } from "../../config";

/**
 * The epay protocol (the de-facto standard of Chinese aggregate payment gateways): an MD5-signed
 * redirect to <gateway>/submit.php, an asynchronous notify to us, and a browser return.
 */

/** Merchant id and key of the built-in sandbox when EPAY_PID / EPAY_KEY are not set. */
export const SANDBOX_PID = "1000";
export const SANDBOX_KEY = "burrow-sandbox-key";
/** Where the sandbox lives under the API. */
export const SANDBOX_PATH = "/api/pay/sandbox";

export interface GatewayKeys {
  kind: "epay" | "sandbox";
  pid: string;
  key: string;
}

/** Which gateway is configured and its merchant credentials (config.ts has validated them). */
export function gatewayKeys(config: Config): GatewayKeys {
  const kind = payGatewayKind(config);
  if (kind === "sandbox") return { kind, pid: config.EPAY_PID ?? SANDBOX_PID, key: config.EPAY_KEY ?? SANDBOX_KEY };
  return { kind, pid: config.EPAY_PID ?? "", key: config.EPAY_KEY ?? "" };
}

/**
 * The base every link given to a gateway starts from: PUBLIC_URL, never anything from a request
 * (a crafted Host or X-Forwarded-Host would otherwise end up inside the signed string). config.ts
 * requires PUBLIC_URL for a real gateway; the in-process sandbox works with site-relative links.
 */
export function publicBase(config: Config): string {
  return config.PUBLIC_URL ? config.PUBLIC_URL.replace(/\/+$/, "") : "";
}

/** The gateway's base URL: EPAY_URL, or the sandbox on this server. */
export function gatewayUrl(config: Config): string {
  const keys = gatewayKeys(config);
  return (keys.kind === "sandbox" ? `${publicBase(config)}${SANDBOX_PATH}` : (config.EPAY_URL ?? "")).replace(
    /\/+$/,
    "",
  );
}

/** The keys a gateway's notify (and signed return) may carry; anything else is refused. */
export const NOTIFY_KEYS = [
  "pid",
  "trade_no",
  "out_trade_no",
  "type",
  "name",
  "money",
  "trade_status",
  "param",
  "sign",
  "sign_type",
] as const;
const NOTIFY_KEY_SET = new Set<string>(NOTIFY_KEYS);
/** Those a notify must carry. */
const NOTIFY_REQUIRED = ["pid", "trade_no", "out_trade_no", "type", "money", "trade_status", "sign"] as const;

/**
 * The string epay signs, or null when a key or value could be read as another parameter set.
 * epay joins raw values with "&" and "=" without escaping, so "a=1&b=2" as one value signs the
 * same bytes as two parameters: such values are refused on both sides instead of escaped (the
 * gateway would not escape them either).
 */
function signingBase(params: Record<string, unknown>): string | null {
  const entries: string[] = [];
  for (const k of Object.keys(params).sort()) {
    if (k === "sign" || k === "sign_type") continue;
    const v = params[k];
    if (v === undefined || v === null || String(v) === "") continue;
    const value = String(v);
    if (/[&=]/.test(k) || /[&=]/.test(value)) return null;
    entries.push(`${k}=${value}`);
  }
  return entries.join("&");
}

/**
 * The epay signature: every non-empty parameter except `sign` and `sign_type`, sorted by key
 * (ASCII), joined as `k=v` with `&`, the key appended, MD5, lower-case hex. Values are signed raw
 * (before URL encoding); a value holding "&" or "=" cannot be signed unambiguously and throws.
 */
export function epaySign(params: Record<string, unknown>, key: string): string {
  const base = signingBase(params);
  if (base === null) throw new Error("epay: a parameter holds '&' or '=' and cannot be signed unambiguously");
  return createHash("md5").update(`${base}${key}`, "utf8").digest("hex");
}

/** Whether `params.sign` is the right signature, compared in constant time. */
export function epayVerify(params: Record<string, unknown>, key: string): boolean {
  const given = typeof params.sign === "string" ? params.sign.toLowerCase() : "";
  if (!/^[0-9a-f]{32}$/.test(given)) return false;
  const base = signingBase(params);
  if (base === null) return false;
  const expected = createHash("md5").update(`${base}${key}`, "utf8").digest("hex");
  return timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

export type NotifyCheck = { ok: true; params: Record<string, string>; amount: number } | { ok: false; reason: string };

/**
 * Checks a gateway notify (or signed return) exactly: only the protocol's keys, each once, the
 * required ones present, the merchant's pid, a well-formed amount and a valid signature over
 * exactly those fields. `trade_status` is left to the caller (a signed non-payment is acknowledged).
 */
export function checkNotify(config: Config, params: Record<string, string>): NotifyCheck {
  const extra = Object.keys(params).filter((k) => !NOTIFY_KEY_SET.has(k));
  if (extra.length > 0) return { ok: false, reason: `unexpected parameters: ${extra.slice(0, 5).join(", ")}` };
  const missing = NOTIFY_REQUIRED.filter((k) => !params[k]);
  if (missing.length > 0) return { ok: false, reason: `missing parameters: ${missing.join(", ")}` };
  const keys = gatewayKeys(config);
  if (!epayVerify(params, keys.key)) return { ok: false, reason: "bad signature" };
  if (params.pid !== keys.pid) return { ok: false, reason: "another merchant's pid" };
  const amount = parseYuan(params.money);
  if (amount === null) return { ok: false, reason: "malformed amount" };
  return { ok: true, params, amount };
}

/** "12.30" → 1230 fen, exactly; null for anything that is not a non-negative amount with ≤ 2 decimals. */
export function parseYuan(money: unknown): number | null {
  if (typeof money !== "string" || !/^\d{1,9}(\.\d{1,2})?$/.test(money)) return null;
  const [yuan, cents = ""] = money.split(".");
  return Number(yuan) * 100 + Number(cents.padEnd(2, "0"));
}

/** The parameters of a payment request, signed. */
export function payParams(
  keys: GatewayKeys,
  base: string,
  order: { trade_id: string; name: string; amount: number; pay_type: string | null },
): Record<string, string> {
  const params: Record<string, string> = {
    pid: keys.pid,
    type: order.pay_type ?? "alipay",
    out_trade_no: order.trade_id,
    notify_url: `${base}/api/pay/epay/notify`,
    return_url: `${base}/api/pay/epay/return`,
    name: gatewayItemName(order.name),
    money: fenToYuan(order.amount),
  };
  return { ...params, sign: epaySign(params, keys.key), sign_type: "MD5" };
}

/**
 * The item name shown at the gateway: an operator-chosen plan name may hold "&" or "=", which epay
 * cannot sign unambiguously, and control characters, which gateways mangle; both become spaces.
 */
export function gatewayItemName(name: string): string {
  return (
    name
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
      .replace(/[&=\u0000-\u001f\u007f]/g, " ")
      .replace(/\s+/g, " ")
      .trim()
      .slice(0, 64) || "订单"
  );
}

/** Where to send the customer's browser to pay: <gateway>/submit.php?… */
export function buildPayUrl(
  config: Config,
  order: { trade_id: string; name: string; amount: number; pay_type: string | null },
): string {
  const params = payParams(gatewayKeys(config), publicBase(config), order);
  return `${gatewayUrl(config)}/submit.php?${new URLSearchParams(params).toString()}`;
}
