import { PaymentsApi } from "@burrow/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { flattenParams } from "../../shared/form-params";
import { recordOnlinePayment } from "../orders/orders.service";
import { checkNotify, gatewayKeys, publicBase } from "./epay";
import { handleEpayNotify } from "./payments.service";
import { type SandboxAnswer, sandboxPay, sandboxSubmit } from "./sandbox";

/**
 * The gateway's side of payments: the asynchronous notify (GET or POST, query or form), the
 * browser return, and — outside production — the sandbox gateway. Registered in their own scope
 * so that the form-body parser gateways need does not leak into the rest of the API.
 */
export function paymentsRoutes(api: FastifyInstance, ctx: AppContext): void {
  void api.register(async (scope) => {
    scope.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: 64 * 1024 },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );

    const notify = async ({ req, reply }: { req: FastifyRequest; reply: FastifyReply }) => {
      // A GET carries its fields in the query, a POST in its form body; both at once is ambiguous.
      const ok = await handleEpayNotify(ctx, flattenParams(req.query, req.method === "POST" ? req.body : undefined));
      // The gateway retries until it reads exactly "success".
      return reply
        .status(ok ? 200 : 400)
        .type("text/plain; charset=utf-8")
        .send(ok ? "success" : "fail");
    };
    defineRoute(scope, ctx, PaymentsApi.getPayEpayNotify, notify);
    defineRoute(scope, ctx, PaymentsApi.postPayEpayNotify, notify);

    defineRoute(scope, ctx, PaymentsApi.getPayEpayReturn, async ({ req, reply }) => {
      const params = flattenParams(req.query) ?? {};
      // A signed successful return is as good as the notify (which a firewall may have held up),
      // checked exactly as the notify is.
      const checked = checkNotify(ctx.config, params);
      if (checked.ok && checked.params.trade_status === "TRADE_SUCCESS") {
        try {
          await recordOnlinePayment(ctx, {
            tradeId: checked.params.out_trade_no,
            channelTradeId: checked.params.trade_no,
            amount: checked.amount,
          });
        } catch (err) {
          req.log.error({ err, out_trade_no: params.out_trade_no }, "payment return: recording failed");
        }
      }
      const base = publicBase(ctx.config);
      const tradeId = /^[A-Za-z0-9]{1,40}$/.test(params.out_trade_no ?? "") ? params.out_trade_no : "";
      return reply.redirect(`${base}/result/pay?trade_id=${encodeURIComponent(tradeId)}`, 302);
    });

    if (gatewayKeys(ctx.config).kind === "sandbox") sandboxRoutes(scope, ctx);
  });
}

function sendSandbox(req: FastifyRequest, reply: FastifyReply, answer: SandboxAnswer): FastifyReply {
  if (answer.kind === "redirect") return reply.redirect(answer.url, 302);
  if (answer.rejectedOrder)
    req.log.warn({ out_trade_no: answer.rejectedOrder }, "sandbox: the notify was not accepted");
  return reply
    .pageHeaders()
    .status(answer.status)
    .type("text/html; charset=utf-8")
    .header("cache-control", "no-store")
    .send(answer.html);
}

/** Registers /pay/sandbox/submit.php (the payment page) and /pay/sandbox/pay (its buttons). */
function sandboxRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, PaymentsApi.getPaySandboxSubmit, async ({ req, reply }) =>
    sendSandbox(req, reply, sandboxSubmit(ctx, req.query)),
  );
  defineRoute(app, ctx, PaymentsApi.postPaySandboxPay, async ({ req, reply }) =>
    sendSandbox(req, reply, await sandboxPay(ctx, req.body)),
  );
}
