import { type PayChannel, PayChannelLabel } from "@burrow/contract";
import type { AppContext } from "../../context";
import { flattenParams } from "../../shared/form-params";
import { escapeHtml } from "../../shared/html";
import { randomDigits } from "../../shared/ids";
import { epaySign, epayVerify, gatewayKeys, parseYuan, publicBase } from "./epay";
import { handleEpayNotify } from "./payments.service";

/**
 * The sandbox gateway: a stand-in for an epay-style gateway, for development and tests (config.ts
 * refuses it in production). It checks the signed request like a real gateway, shows the order,
 * and on "pay" hands the same signed notify a real gateway would send to Burrow's notify handler
 * in-process, then returns the browser to Burrow's return page with the signed result. It never
 * fetches or redirects to a URL taken from the request (that made the server an open relay for
 * any address written into a signed notify_url), and knows nothing of Burrow's database.
 */

const REQUEST_KEYS = ["pid", "type", "out_trade_no", "notify_url", "return_url", "name", "money"] as const;

/**
 * The page's own icon, inline (the CSP's img-src allows data:): without one the browser asks for
 * /favicon.ico, which nothing serves (a 404 in the console), and a link to the console's icon would
 * depend on the web app being served from this origin.
 */
const ICON = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1677ff"/>' +
    '<path d="M9 11h14M9 16h14M9 21h9" stroke="#fff" stroke-width="2.5" stroke-linecap="round"/></svg>',
)}`;

/**
 * What the sandbox answers, for its route to send: a page (HTML, with its status) or a redirect
 * back to Burrow's return page. `rejectedOrder` names an order whose notify Burrow refused (logged).
 */
export type SandboxAnswer =
  | { kind: "page"; status: number; html: string; rejectedOrder?: string }
  | { kind: "redirect"; url: string };

function page(status: number, title: string, body: string, rejectedOrder?: string): SandboxAnswer {
  const html = `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" type="image/svg+xml" href="${ICON}">
<title>${escapeHtml(title)} - 沙箱支付</title>
<style>
  body { font-family: -apple-system, "PingFang SC", "Microsoft YaHei", sans-serif; background: #f5f5f5; margin: 0; }
  main { max-width: 420px; margin: 48px auto; background: #fff; border-radius: 8px; padding: 24px 28px;
         box-shadow: 0 2px 8px rgba(0,0,0,.08); }
  .banner { background: #fffbe6; border: 1px solid #ffe58f; color: #ad6800; padding: 8px 12px; border-radius: 4px;
            font-size: 13px; margin-bottom: 16px; }
  h1 { font-size: 20px; margin: 0 0 16px; }
  dl { display: grid; grid-template-columns: 84px 1fr; gap: 8px 12px; margin: 0 0 20px; font-size: 14px; }
  dt { color: #888; } dd { margin: 0; word-break: break-all; }
  .money { font-size: 28px; color: #f5222d; font-weight: 600; }
  .actions { display: flex; gap: 12px; }
  button { flex: 1; height: 40px; border-radius: 6px; border: 1px solid #d9d9d9; background: #fff; font-size: 15px;
           cursor: pointer; }
  button.primary { background: #1677ff; border-color: #1677ff; color: #fff; }
  pre { background: #fafafa; padding: 8px; white-space: pre-wrap; font-size: 12px; }
</style>
</head>
<body><main><div class="banner">沙箱支付网关：仅用于开发与测试，不会产生真实扣款。</div>${body}</main></body>
</html>`;
  return { kind: "page", status, html, rejectedOrder };
}

/** The request's own parameters if its signature and merchant are right, else null. */
function verifiedRequest(ctx: AppContext, params: Record<string, string> | null): Record<string, string> | null {
  if (!params) return null;
  const keys = gatewayKeys(ctx.config);
  // Only the protocol's own parameters are signed (the page's button adds "action").
  const out: Record<string, string> = {};
  for (const k of REQUEST_KEYS) if (params[k] !== undefined) out[k] = params[k];
  const signed = { ...out, sign: params.sign ?? "", sign_type: params.sign_type ?? "MD5" };
  if (out.pid !== keys.pid || !epayVerify(signed, keys.key)) return null;
  if (parseYuan(out.money) === null || !out.out_trade_no || !out.notify_url || !out.return_url) return null;
  return signed;
}

const withQuery = (url: string, params: Record<string, string>) =>
  `${url}${url.includes("?") ? "&" : "?"}${new URLSearchParams(params).toString()}`;

const INVALID = "<h1>支付请求无效</h1><p>签名错误、商户号不符或参数缺失。</p>";

/** GET /pay/sandbox/submit.php: the payment page for a signed request. */
export function sandboxSubmit(ctx: AppContext, query: unknown): SandboxAnswer {
  const req0 = verifiedRequest(ctx, flattenParams(query));
  if (!req0) return page(400, "请求无效", INVALID);
  const hidden = Object.entries(req0)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join("");
  const channel = PayChannelLabel[req0.type as PayChannel] ?? req0.type ?? "";
  return page(
    200,
    "收银台",
    `<h1>收银台</h1>
<dl>
<dt>商品</dt><dd>${escapeHtml(req0.name ?? "")}</dd>
<dt>订单号</dt><dd>${escapeHtml(req0.out_trade_no)}</dd>
<dt>支付方式</dt><dd>${escapeHtml(channel)}</dd>
<dt>金额</dt><dd class="money">¥${escapeHtml(req0.money)}</dd>
</dl>
<form method="post" action="pay" class="actions">${hidden}
<button type="submit" name="action" value="cancel">取消支付</button>
<button type="submit" name="action" value="pay" class="primary">确认支付</button>
</form>`,
  );
}

/** POST /pay/sandbox/pay: the page's buttons; "pay" notifies Burrow in-process, then returns there. */
export async function sandboxPay(ctx: AppContext, body: unknown): Promise<SandboxAnswer> {
  const params = flattenParams(body);
  const req0 = verifiedRequest(ctx, params);
  const returnUrl = `${publicBase(ctx.config)}/api/pay/epay/return`;
  if (!req0) return page(400, "请求无效", INVALID);
  if (params?.action !== "pay") {
    // Like a real gateway: back to the merchant without a payment; the order stays unpaid.
    return { kind: "redirect", url: withQuery(returnUrl, { out_trade_no: req0.out_trade_no }) };
  }
  const keys = gatewayKeys(ctx.config);
  const result: Record<string, string> = {
    pid: keys.pid,
    trade_no: `SB${Date.now()}${randomDigits(6)}`,
    out_trade_no: req0.out_trade_no,
    type: req0.type ?? "alipay",
    name: req0.name ?? "",
    money: req0.money,
    trade_status: "TRADE_SUCCESS",
  };
  const signed = { ...result, sign: epaySign(result, keys.key), sign_type: "MD5" };
  const accepted = await handleEpayNotify(ctx, signed);
  if (!accepted) {
    return page(
      502,
      "通知失败",
      "<h1>商户未确认支付通知</h1><p>订单不存在、已关闭或金额不符，详见服务器日志。</p>",
      req0.out_trade_no,
    );
  }
  return { kind: "redirect", url: withQuery(returnUrl, signed) };
}
