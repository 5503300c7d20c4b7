import { TunnelsApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { grants } from "../../shared/auth";
import { rotateSecret, visitorConfig } from "./secret-tunnels";

/** Secret tunnels (stcp, xtcp, sudp): the visitor side's frpc.toml and the secret's rotation. */
export function secretRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, TunnelsApi.getUserTunTunidVisitor, ({ params, user }) =>
    visitorConfig(ctx, user.uid, params.tunid),
  );
  // Rotating needs tunnels:write; the new secret is shown only to a caller that may read the
  // tunnel (an API token with write alone rotates blind, as it cannot read the detail either).
  defineRoute(app, ctx, TunnelsApi.postUserTunTunidSecret, async ({ params, user }) => {
    const detail = await rotateSecret(ctx, user.uid, params.tunid);
    return grants(user, "tunnels:read") ? detail : { ...detail, secret_key: null };
  });
}
