import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { recordOnlinePayment } from "../orders/orders.service";
import { epayVerify, gatewayKeys, parseYuan } from "./epay";
import { flattenParams, handleEpayNotify } from "./payments.service";
import { sandboxRoutes } from "./sandbox";

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
      const ok = await handleEpayNotify(ctx, flattenParams(req.query, req.body));
      // The gateway retries until it reads exactly "success".
      return reply
        .status(ok ? 200 : 400)
        .type("text/plain; charset=utf-8")
        .send(ok ? "success" : "fail");
    };
    defineRoute(scope, ctx, { method: "GET", url: "/pay/epay/notify", access: "public", handler: notify });
    defineRoute(scope, ctx, { method: "POST", url: "/pay/epay/notify", access: "public", handler: notify });

    defineRoute(scope, ctx, {
      method: "GET",
      url: "/pay/epay/return",
      access: "public",
      handler: async ({ req, reply }) => {
        const params = flattenParams(req.query);
        const keys = gatewayKeys(ctx.config);
        // A signed successful return is as good as the notify (which a firewall may have held up).
        const amount = parseYuan(params.money);
        if (
          params.trade_status === "TRADE_SUCCESS" &&
          params.pid === keys.pid &&
          params.trade_no &&
          amount !== null &&
          epayVerify(params, keys.key)
        ) {
          try {
            await recordOnlinePayment(ctx, { tradeId: params.out_trade_no, channelTradeId: params.trade_no, amount });
          } catch (err) {
            req.log.error({ err, out_trade_no: params.out_trade_no }, "payment return: recording failed");
          }
        }
        const base = ctx.config.PUBLIC_URL?.replace(/\/+$/, "") ?? "";
        const tradeId = /^[A-Za-z0-9]{1,40}$/.test(params.out_trade_no ?? "") ? params.out_trade_no : "";
        return reply.redirect(`${base}/result/pay?trade_id=${encodeURIComponent(tradeId)}`, 302);
      },
    });

    if (gatewayKeys(ctx.config).kind === "sandbox") sandboxRoutes(scope, ctx);
  });
}
