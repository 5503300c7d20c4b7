import {
  AreaListQuery,
  CreateAreaBody,
  CreateLevelBody,
  CreateNetTypeBody,
  CreateNodeBody,
  DeleteAreaBody,
  DeleteLevelBody,
  DeleteNetTypeBody,
  DeleteNodeBody,
  LevelListQuery,
  NetTypeListQuery,
  NodeIdQuery,
  NodeListQuery,
  UpdateAreaBody,
  UpdateLevelBody,
  UpdateNetTypeBody,
  UpdateNodeBody,
} from "@burrow/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import { refused } from "../../http/errors";
import { defineRoute } from "../../http/route";
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
  const op = (user: { uid: number }, req: FastifyRequest) => ({ uid: user.uid, ip: req.ip });

  defineRoute(app, ctx, {
    method: "GET",
    url: "/super/area",
    access: "manager",
    query: AreaListQuery,
    handler: ({ query }) => listAreas(ctx, query),
  });
  defineRoute(app, ctx, {
    method: "POST",
    url: "/super/area",
    access: "manager",
    body: CreateAreaBody,
    handler: ({ body, user, req }) => createArea(ctx, op(user, req), body),
  });
  defineRoute(app, ctx, {
    method: "PATCH",
    url: "/super/area",
    access: "manager",
    body: UpdateAreaBody,
    handler: ({ body, user, req }) => updateArea(ctx, op(user, req), body),
  });
  defineRoute(app, ctx, {
    method: "DELETE",
    url: "/super/area",
    access: "manager",
    body: DeleteAreaBody,
    handler: ({ body, user, req }) => deleteArea(ctx, op(user, req), body.area_id),
  });

  defineRoute(app, ctx, {
    method: "GET",
    url: "/super/node/netType",
    access: "manager",
    query: NetTypeListQuery,
    handler: ({ query }) => listNetTypes(ctx, query),
  });
  defineRoute(app, ctx, {
    method: "POST",
    url: "/super/node/netType",
    access: "manager",
    body: CreateNetTypeBody,
    handler: ({ body, user, req }) => createNetType(ctx, op(user, req), body),
  });
  defineRoute(app, ctx, {
    method: "PATCH",
    url: "/super/node/netType",
    access: "manager",
    body: UpdateNetTypeBody,
    handler: ({ body, user, req }) => updateNetType(ctx, op(user, req), body),
  });
  defineRoute(app, ctx, {
    method: "DELETE",
    url: "/super/node/netType",
    access: "manager",
    body: DeleteNetTypeBody,
    handler: ({ body, user, req }) => deleteNetType(ctx, op(user, req), body),
  });

  defineRoute(app, ctx, {
    method: "GET",
    url: "/super/plan/level",
    access: "manager",
    query: LevelListQuery,
    handler: ({ query }) => listLevels(ctx, query),
  });
  defineRoute(app, ctx, {
    method: "POST",
    url: "/super/plan/level",
    access: "manager",
    body: CreateLevelBody,
    handler: ({ body, user, req }) => createLevel(ctx, op(user, req), body),
  });
  defineRoute(app, ctx, {
    method: "PATCH",
    url: "/super/plan/level",
    access: "manager",
    body: UpdateLevelBody,
    handler: ({ body, user, req }) => updateLevel(ctx, op(user, req), body),
  });
  defineRoute(app, ctx, {
    method: "DELETE",
    url: "/super/plan/level",
    access: "manager",
    body: DeleteLevelBody,
    handler: ({ body, user, req }) => deleteLevel(ctx, op(user, req), body),
  });

  defineRoute(app, ctx, {
    method: "GET",
    url: "/super/node",
    access: "manager",
    query: NodeListQuery,
    handler: ({ query }) => listAdminNodes(ctx, query),
  });
  defineRoute(app, ctx, {
    method: "GET",
    url: "/super/node/detail",
    access: "manager",
    query: NodeIdQuery,
    handler: ({ query }) => nodeDetail(ctx, query.node_id),
  });
  defineRoute(app, ctx, {
    method: "GET",
    url: "/super/node/setup",
    access: "manager",
    query: NodeIdQuery,
    handler: ({ query, req }) => nodeSetup(ctx, query.node_id, publicBaseUrl(ctx, req)),
  });
  defineRoute(app, ctx, {
    method: "POST",
    url: "/super/node",
    access: "manager",
    body: CreateNodeBody,
    handler: ({ body, user, req }) => createNode(ctx, op(user, req), body),
  });
  defineRoute(app, ctx, {
    method: "PATCH",
    url: "/super/node",
    access: "manager",
    body: UpdateNodeBody,
    handler: ({ body, user, req }) => updateNode(ctx, op(user, req), body),
  });
  defineRoute(app, ctx, {
    method: "DELETE",
    url: "/super/node",
    access: "manager",
    body: DeleteNodeBody,
    handler: ({ body, user, req }) => deleteNode(ctx, op(user, req), body.node_id),
  });

  defineRoute(app, ctx, {
    method: "GET",
    url: "/user/node",
    access: "user",
    query: NodeListQuery,
    handler: ({ query, user }) => listUserNodes(ctx, user.uid, query),
  });
}
