import { TunnelsApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { rotateSecret, visitorConfig } from "./secret-tunnels";

/** Secret tunnels (stcp, xtcp, sudp): the visitor side's frpc.toml and the secret's rotation. */
export function secretRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, TunnelsApi.getUserTunTunidVisitor, ({ params, user }) =>
    visitorConfig(ctx, user.uid, params.tunid),
  );
  defineRoute(app, ctx, TunnelsApi.postUserTunTunidSecret, ({ params, user }) =>
    rotateSecret(ctx, user.uid, params.tunid),
  );
}
