import { TunnelsApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { getShield, liftBan, listBans, putShield } from "./shield";

/** 访客防护: a customer's allow and deny lists, ban rule and bans, per tunnel. */
export function shieldRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, TunnelsApi.getUserTunTunidShield, ({ params, user }) => getShield(ctx, user.uid, params.tunid));
  defineRoute(app, ctx, TunnelsApi.putUserTunTunidShield, ({ params, body, user }) =>
    putShield(ctx, user.uid, params.tunid, body),
  );
  defineRoute(app, ctx, TunnelsApi.getUserTunTunidShieldBans, ({ params, query, user }) =>
    listBans(ctx, user.uid, params.tunid, query),
  );
  defineRoute(app, ctx, TunnelsApi.deleteUserTunTunidShieldBansBanid, ({ params, user }) =>
    liftBan(ctx, user.uid, params.tunid, params.banid),
  );
}
