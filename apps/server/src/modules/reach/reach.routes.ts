import { ReachApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { checkReach } from "./reach.service";

/** 外网检测 of a customer's tunnel. */
export function reachRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, ReachApi.postUserTunTunidReach, ({ params, user }) => checkReach(ctx, user.uid, params.tunid));
}
