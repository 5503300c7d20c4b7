import {
  AbuseReportBody,
  AdminTunnelListQuery,
  AdminUpdateTunnelBody,
  ConnListQuery,
  CreateIllegalRuleBody,
  CreateTunnelBody,
  DeleteIllegalRuleBody,
  DeleteTunnelBody,
  FlowQuery,
  HandleIllegalBody,
  IllegalListQuery,
  IllegalRuleListQuery,
  PageQuery,
  TunIdParams,
  TunIdQuery,
  TunnelConfigQuery,
  TunnelListQuery,
  TunnelTrafficQuery,
  UpdateTunnelBody,
  UserTrafficQuery,
} from "@burrow/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
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
  const op = (user: { uid: number }, req: FastifyRequest) => ({ uid: user.uid, ip: req.ip });

  // ------------------------------------------------------------ customers
  defineRoute(app, ctx, {
    method: "GET",
    url: "/user/tun",
    access: "user",
    query: TunnelListQuery,
    handler: ({ query, user }) => listUserTunnels(ctx, user.uid, query),
  });
  defineRoute(app, ctx, {
    method: "POST",
    url: "/user/tun",
    access: "user",
    body: CreateTunnelBody,
    handler: ({ body, user }) => createTunnel(ctx, user.uid, body),
  });
  defineRoute(app, ctx, {
    method: "PATCH",
    url: "/user/tun",
    access: "user",
    body: UpdateTunnelBody,
    handler: ({ body, user }) => updateTunnel(ctx, user.uid, body),
  });
  defineRoute(app, ctx, {
    method: "DELETE",
    url: "/user/tun",
    access: "user",
    body: DeleteTunnelBody,
    handler: ({ body, user }) => deleteTunnel(ctx, user.uid, body.tun_id),
  });
  defineRoute(app, ctx, {
    method: "GET",
    url: "/user/tun/config",
    access: "user",
    query: TunnelConfigQuery,
    handler: ({ query, user }) => tunnelConfig(ctx, user.uid, query),
  });
  defineRoute(app, ctx, {
    method: "GET",
    url: "/user/tun/:tunid",
    access: "user",
    params: TunIdParams,
    handler: ({ params, user }) => getUserTunnel(ctx, user.uid, params.tunid),
  });
  defineRoute(app, ctx, {
    method: "GET",
    url: "/user/tun/:tunid/traffic",
    access: "user",
    params: TunIdParams,
    query: TunnelTrafficQuery,
    handler: ({ params, query, user }) => tunnelTrafficChart(ctx, user.uid, params.tunid, query.days),
  });
  defineRoute(app, ctx, {
    method: "GET",
    url: "/user/tun/:tunid/conns",
    access: "user",
    params: TunIdParams,
    query: PageQuery,
    handler: async ({ params, query, user }) => {
      await getUserTunnel(ctx, user.uid, params.tunid);
      return listConns(ctx, { ...query, tun_id: params.tunid, uid: user.uid });
    },
  });
  defineRoute(app, ctx, {
    method: "GET",
    url: "/user/traffic",
    access: "user",
    query: UserTrafficQuery,
    handler: ({ query, user }) => userTraffic(ctx, user.uid, query),
  });

  // ------------------------------------------------------------ anyone
  defineRoute(app, ctx, {
    method: "POST",
    url: "/public/abuse",
    access: "public",
    body: AbuseReportBody,
    handler: ({ body, req }) => reportAbuse(ctx, req.ip, body),
  });

  // ------------------------------------------------------------ operators
  defineRoute(app, ctx, {
    method: "GET",
    url: "/super/tun/list",
    access: "manager",
    query: AdminTunnelListQuery,
    handler: ({ query }) => listAdminTunnels(ctx, query),
  });
  defineRoute(app, ctx, {
    method: "GET",
    url: "/super/tun/detail",
    access: "manager",
    query: TunIdQuery,
    handler: ({ query }) => getAdminTunnel(ctx, query.tun_id),
  });
  defineRoute(app, ctx, {
    method: "PATCH",
    url: "/super/tun",
    access: "manager",
    body: AdminUpdateTunnelBody,
    handler: ({ body, user, req }) => adminUpdateTunnel(ctx, op(user, req), body),
  });
  defineRoute(app, ctx, {
    method: "GET",
    url: "/super/tun/illegal",
    access: "manager",
    query: IllegalListQuery,
    handler: ({ query }) => listFlags(ctx, query),
  });
  defineRoute(app, ctx, {
    method: "PATCH",
    url: "/super/tun/illegal",
    access: "manager",
    body: HandleIllegalBody,
    handler: ({ body, user, req }) => handleFlag(ctx, op(user, req), body),
  });
  defineRoute(app, ctx, {
    method: "GET",
    url: "/super/tun/illegal/rule",
    access: "manager",
    query: IllegalRuleListQuery,
    handler: ({ query }) => listRules(ctx, query),
  });
  defineRoute(app, ctx, {
    method: "POST",
    url: "/super/tun/illegal/rule",
    access: "manager",
    body: CreateIllegalRuleBody,
    handler: ({ body, user, req }) => createRule(ctx, op(user, req), body),
  });
  defineRoute(app, ctx, {
    method: "DELETE",
    url: "/super/tun/illegal/rule",
    access: "manager",
    body: DeleteIllegalRuleBody,
    handler: ({ body, user, req }) => deleteRule(ctx, op(user, req), body.id),
  });
  defineRoute(app, ctx, {
    method: "GET",
    url: "/super/tun/conns",
    access: "manager",
    query: ConnListQuery,
    handler: ({ query }) => connOverview(ctx, query),
  });
  defineRoute(app, ctx, {
    method: "GET",
    url: "/super/flow",
    access: "manager",
    query: FlowQuery,
    handler: ({ query }) => flow(ctx, query),
  });
}
