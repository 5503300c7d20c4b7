import { TunnelsApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { tunnelConfig } from "./frpc-config";
import { createRule, deleteRule, handleFlag, listFlags, listRules, reportAbuse } from "./illegal.service";
import { deleteTunnelSchedule, putTunnelSchedule } from "./schedule";
import { batchTunnels, moveTunnel } from "./tunnel-batch";
import { listTunnelEvents } from "./tunnel-events";
import { adminUpdateTunnel } from "./tunnels.admin";
import {
  createTunnel,
  deleteTunnel,
  getAdminTunnel,
  getUserTunnel,
  listAdminTunnels,
  listUserTunnels,
  updateTunnel,
} from "./tunnels.service";

/** Customers' tunnels; operators' tunnel management and illegal tunnels. */
export function tunnelsRoutes(app: FastifyInstance, ctx: AppContext): void {
  // ------------------------------------------------------------ customers
  defineRoute(app, ctx, TunnelsApi.getUserTun, ({ query, user }) => listUserTunnels(ctx, user.uid, query));
  defineRoute(app, ctx, TunnelsApi.postUserTun, ({ body, user }) => createTunnel(ctx, user.uid, body));
  defineRoute(app, ctx, TunnelsApi.patchUserTun, ({ body, user }) => updateTunnel(ctx, user.uid, body));
  defineRoute(app, ctx, TunnelsApi.deleteUserTun, ({ body, user }) => deleteTunnel(ctx, user.uid, body.tun_id));
  defineRoute(app, ctx, TunnelsApi.postUserTunBatch, ({ body, user }) => batchTunnels(ctx, user.uid, body));
  defineRoute(app, ctx, TunnelsApi.postUserTunMove, ({ body, user }) => moveTunnel(ctx, user.uid, body));
  defineRoute(app, ctx, TunnelsApi.getUserTunConfig, ({ query, user }) => tunnelConfig(ctx, user.uid, query));
  defineRoute(app, ctx, TunnelsApi.getUserTunTunid, ({ params, user }) => getUserTunnel(ctx, user.uid, params.tunid));
  defineRoute(app, ctx, TunnelsApi.getUserTunTunidEvents, ({ params, query, user }) =>
    listTunnelEvents(ctx, user.uid, params.tunid, query),
  );

  defineRoute(app, ctx, TunnelsApi.putUserTunTunidSchedule, ({ params, body, user }) =>
    putTunnelSchedule(ctx, user.uid, params.tunid, body),
  );
  defineRoute(app, ctx, TunnelsApi.deleteUserTunTunidSchedule, ({ params, user }) =>
    deleteTunnelSchedule(ctx, user.uid, params.tunid),
  );

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
}
