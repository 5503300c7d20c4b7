import { AutopayApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { autopayState, setAutoRenew, setTopupRule } from "./autopay.service";

/** The customer's automatic purchases: auto-renewal switches and the traffic top-up rule. */
export function autopayRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, AutopayApi.getUserAutopay, ({ user }) => autopayState(ctx, user.uid));
  defineRoute(app, ctx, AutopayApi.putUserAutopayRenewal, ({ user, body }) => setAutoRenew(ctx, user.uid, body));
  defineRoute(app, ctx, AutopayApi.putUserAutopayTopup, ({ user, body }) => setTopupRule(ctx, user.uid, body));
}
