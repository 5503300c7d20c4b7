import { createHash, timingSafeEqual } from "node:crypto";
import { fenToYuan } from "@burrow/contract";
import type { FastifyRequest } from "fastify";
import type { Config } from "../../config";

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
  const kind = config.PAY_GATEWAY ?? (config.NODE_ENV === "production" ? "epay" : "sandbox");
  if (kind === "sandbox") return { kind, pid: config.EPAY_PID ?? SANDBOX_PID, key: config.EPAY_KEY ?? SANDBOX_KEY };
  return { kind, pid: config.EPAY_PID ?? "", key: config.EPAY_KEY ?? "" };
}

/** The gateway's base URL: EPAY_URL, or the sandbox on this server. */
export function gatewayUrl(config: Config, origin: string): string {
  const keys = gatewayKeys(config);
  return (keys.kind === "sandbox" ? `${origin}${SANDBOX_PATH}` : (config.EPAY_URL ?? "")).replace(/\/+$/, "");
}

/**
 * The epay signature: every non-empty parameter except `sign` and `sign_type`, sorted by key
 * (ASCII), joined as `k=v` with `&`, the key appended, MD5, lower-case hex. Values are signed raw
 * (before URL encoding).
 */
export function epaySign(params: Record<string, unknown>, key: string): string {
  const base = Object.keys(params)
    .filter((k) => k !== "sign" && k !== "sign_type")
    .filter((k) => params[k] !== undefined && params[k] !== null && String(params[k]) !== "")
    .sort()
    .map((k) => `${k}=${String(params[k])}`)
    .join("&");
  return createHash("md5").update(`${base}${key}`, "utf8").digest("hex");
}

/** Whether `params.sign` is the right signature, compared in constant time. */
export function epayVerify(params: Record<string, unknown>, key: string): boolean {
  const given = typeof params.sign === "string" ? params.sign.toLowerCase() : "";
  if (!/^[0-9a-f]{32}$/.test(given)) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(epaySign(params, key)));
}

/** "12.30" → 1230 fen, exactly; null for anything that is not a non-negative amount with ≤ 2 decimals. */
export function parseYuan(money: unknown): number | null {
  if (typeof money !== "string" || !/^\d{1,9}(\.\d{1,2})?$/.test(money)) return null;
  const [yuan, cents = ""] = money.split(".");
  return Number(yuan) * 100 + Number(cents.padEnd(2, "0"));
}

/**
 * This server's public origin: PUBLIC_URL when set (behind a proxy, for gateways calling back),
 * else the origin the request came to.
 */
export function publicOrigin(config: Config, req: FastifyRequest): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL.replace(/\/+$/, "");
  return `${req.protocol}://${req.host}`;
}

/** The parameters of a payment request, signed. */
export function payParams(
  keys: GatewayKeys,
  origin: string,
  order: { trade_id: string; name: string; amount: number; pay_type: string | null },
): Record<string, string> {
  const params: Record<string, string> = {
    pid: keys.pid,
    type: order.pay_type ?? "alipay",
    out_trade_no: order.trade_id,
    notify_url: `${origin}/api/pay/epay/notify`,
    return_url: `${origin}/api/pay/epay/return`,
    name: order.name.slice(0, 64),
    money: fenToYuan(order.amount),
  };
  return { ...params, sign: epaySign(params, keys.key), sign_type: "MD5" };
}

/** Where to send the customer's browser to pay: <gateway>/submit.php?… */
export function buildPayUrl(
  config: Config,
  origin: string,
  order: { trade_id: string; name: string; amount: number; pay_type: string | null },
): string {
  const params = payParams(gatewayKeys(config), origin, order);
  return `${gatewayUrl(config, origin)}/submit.php?${new URLSearchParams(params).toString()}`;
}
