import { TunnelsApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { connOverview, flow, listConns, tunnelTrafficChart, userTraffic } from "../traffic/traffic.service";
import { tunnelConfig } from "./frpc-config";
import { createRule, deleteRule, handleFlag, listFlags, listRules, reportAbuse } from "./illegal.service";
import {
  adminUpdateTunnel,
  createTunnel,
  deleteTunnel,
  getAdminTunnel,
  getUserTunnel,
  listAdminTunnels,
  listUserTunnels,
  updateTunnel,
} from "./tunnels.service";

/** Customers' tunnels, traffic and connections; operators' tunnel management, illegal tunnels, conns and flow. */
export function tunnelsRoutes(app: FastifyInstance, ctx: AppContext): void {
  // ------------------------------------------------------------ customers
  defineRoute(app, ctx, TunnelsApi.getUserTun, ({ query, user }) => listUserTunnels(ctx, user.uid, query));
  defineRoute(app, ctx, TunnelsApi.postUserTun, ({ body, user }) => createTunnel(ctx, user.uid, body));
  defineRoute(app, ctx, TunnelsApi.patchUserTun, ({ body, user }) => updateTunnel(ctx, user.uid, body));
  defineRoute(app, ctx, TunnelsApi.deleteUserTun, ({ body, user }) => deleteTunnel(ctx, user.uid, body.tun_id));
  defineRoute(app, ctx, TunnelsApi.getUserTunConfig, ({ query, user }) => tunnelConfig(ctx, user.uid, query));
  defineRoute(app, ctx, TunnelsApi.getUserTunTunid, ({ params, user }) => getUserTunnel(ctx, user.uid, params.tunid));
  defineRoute(app, ctx, TunnelsApi.getUserTunTunidTraffic, ({ params, query, user }) =>
    tunnelTrafficChart(ctx, user.uid, params.tunid, query.days),
  );
  defineRoute(app, ctx, TunnelsApi.getUserTunTunidConns, async ({ params, query, user }) => {
    await getUserTunnel(ctx, user.uid, params.tunid);
    return listConns(ctx, { ...query, tun_id: params.tunid, uid: user.uid });
  });
  defineRoute(app, ctx, TunnelsApi.getUserTraffic, ({ query, user }) => userTraffic(ctx, user.uid, query));

  // ------------------------------------------------------------ anyone
  defineRoute(app, ctx, TunnelsApi.postPublicAbuse, ({ body, req }) => reportAbuse(ctx, req.ip, body));

  // ------------------------------------------------------------ operators
  defineRoute(app, ctx, TunnelsApi.getSuperTunList, ({ query }) => listAdminTunnels(ctx, query));
  defineRoute(app, ctx, TunnelsApi.getSuperTunDetail, ({ query }) => getAdminTunnel(ctx, query.tun_id));
  defineRoute(app, ctx, TunnelsApi.patchSuperTun, ({ body, operator }) => adminUpdateTunnel(ctx, operator, body));
  defineRoute(app, ctx, TunnelsApi.getSuperTunIllegal, ({ query }) => listFlags(ctx, query));
  defineRoute(app, ctx, TunnelsApi.patchSuperTunIllegal, ({ body, operator }) => handleFlag(ctx, operator, body));
  defineRoute(app, ctx, TunnelsApi.getSuperTunIllegalRule, ({ query }) => listRules(ctx, query));
  defineRoute(app, ctx, TunnelsApi.postSuperTunIllegalRule, ({ body, operator }) => createRule(ctx, operator, body));
  defineRoute(app, ctx, TunnelsApi.deleteSuperTunIllegalRule, ({ body, operator }) =>
    deleteRule(ctx, operator, body.id),
  );
  defineRoute(app, ctx, TunnelsApi.getSuperTunConns, ({ query }) => connOverview(ctx, query));
  defineRoute(app, ctx, TunnelsApi.getSuperFlow, ({ query }) => flow(ctx, query));
}
