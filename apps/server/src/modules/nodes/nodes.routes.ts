import { NodesApi } from "@burrow/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { refused } from "../../shared/errors";
import {
  createArea,
  createLevel,
  createNetType,
  deleteArea,
  deleteLevel,
  deleteNetType,
  listAreas,
  listLevels,
  listNetTypes,
  updateArea,
  updateLevel,
  updateNetType,
} from "./catalog.service";
import {
  createNode,
  deleteNode,
  listAdminNodes,
  listUserNodes,
  nodeDetail,
  nodeSetup,
  updateNode,
} from "./nodes.service";

/**
 * Burrow's base URL as frps should reach it: PUBLIC_URL, else the origin the operator is using,
 * from the Host header only. Never X-Forwarded-Host (req.host honours it behind a trusted proxy,
 * and a proxy passes on whatever the client sent), and never a Host that is not a plain host[:port].
 */
export function publicBaseUrl(ctx: AppContext, req: FastifyRequest): string {
  if (ctx.config.PUBLIC_URL) return ctx.config.PUBLIC_URL;
  const host = req.headers.host ?? "";
  if (!/^([a-z0-9-]+(\.[a-z0-9-]+)*\.?|\[[0-9a-f:.]+\])(:\d{1,5})?$/i.test(host))
    throw refused("无法确定控制台地址，请设置 PUBLIC_URL");
  return `${req.protocol === "https" ? "https" : "http"}://${host}`;
}

/** Areas, network types, store levels and nodes (operators), and the customer's node list. */
export function nodesRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, NodesApi.getSuperArea, ({ query }) => listAreas(ctx, query));
  defineRoute(app, ctx, NodesApi.postSuperArea, ({ body, operator }) => createArea(ctx, operator, body));
  defineRoute(app, ctx, NodesApi.patchSuperArea, ({ body, operator }) => updateArea(ctx, operator, body));
  defineRoute(app, ctx, NodesApi.deleteSuperArea, ({ body, operator }) => deleteArea(ctx, operator, body.area_id));

  defineRoute(app, ctx, NodesApi.getSuperNodeNetType, ({ query }) => listNetTypes(ctx, query));
  defineRoute(app, ctx, NodesApi.postSuperNodeNetType, ({ body, operator }) => createNetType(ctx, operator, body));
  defineRoute(app, ctx, NodesApi.patchSuperNodeNetType, ({ body, operator }) => updateNetType(ctx, operator, body));
  defineRoute(app, ctx, NodesApi.deleteSuperNodeNetType, ({ body, operator }) => deleteNetType(ctx, operator, body));

  defineRoute(app, ctx, NodesApi.getSuperPlanLevel, ({ query }) => listLevels(ctx, query));
  defineRoute(app, ctx, NodesApi.postSuperPlanLevel, ({ body, operator }) => createLevel(ctx, operator, body));
  defineRoute(app, ctx, NodesApi.patchSuperPlanLevel, ({ body, operator }) => updateLevel(ctx, operator, body));
  defineRoute(app, ctx, NodesApi.deleteSuperPlanLevel, ({ body, operator }) => deleteLevel(ctx, operator, body));

  defineRoute(app, ctx, NodesApi.getSuperNode, ({ query }) => listAdminNodes(ctx, query));
  defineRoute(app, ctx, NodesApi.getSuperNodeDetail, ({ query }) => nodeDetail(ctx, query.node_id));
  defineRoute(app, ctx, NodesApi.getSuperNodeSetup, ({ query, req }) =>
    nodeSetup(ctx, query.node_id, publicBaseUrl(ctx, req)),
  );
  defineRoute(app, ctx, NodesApi.postSuperNode, ({ body, operator }) => createNode(ctx, operator, body));
  defineRoute(app, ctx, NodesApi.patchSuperNode, ({ body, operator }) => updateNode(ctx, operator, body));
  defineRoute(app, ctx, NodesApi.deleteSuperNode, ({ body, operator }) => deleteNode(ctx, operator, body.node_id));

  defineRoute(app, ctx, NodesApi.getUserNode, ({ query, user }) => listUserNodes(ctx, user.uid, query));
}
