import type {
  AreaListQuery,
  CreateAreaBody,
  CreateLevelBody,
  CreateNetTypeBody,
  CreateNodeBody,
  LevelListQuery,
  NetTypeListQuery,
  NodeListQuery,
  UpdateAreaBody,
  UpdateLevelBody,
  UpdateNetTypeBody,
  UpdateNodeBody,
} from "@burrow/contract";
import { FrpApi, NodesApi } from "@burrow/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";
import { pagedListQuery } from "@/lib/table-query";
import type { ListFilters } from "@/lib/url-filters";

export type AreaFilters = ListFilters<AreaListQuery>;
export type NetTypeFilters = ListFilters<NetTypeListQuery>;
export type LevelFilters = ListFilters<LevelListQuery>;
export type NodeFilters = ListFilters<NodeListQuery>;

/** The largest page the server serves: option lists (areas, levels…) are short enough for one page. */
export const ALL = { page: 1, size: 100 } as const;

export const nodesKeys = {
  all: ["nodes"] as const,
  areas: (f: AreaFilters) => [...nodesKeys.all, "areas", f] as const,
  netTypes: (f: NetTypeFilters) => [...nodesKeys.all, "netTypes", f] as const,
  levels: (f: LevelFilters) => [...nodesKeys.all, "levels", f] as const,
  adminNodes: (f: NodeFilters) => [...nodesKeys.all, "admin", f] as const,
  detail: (nodeId: number) => [...nodesKeys.all, "detail", nodeId] as const,
  setup: (nodeId: number) => [...nodesKeys.all, "setup", nodeId] as const,
  userNodes: (f: NodeFilters) => [...nodesKeys.all, "user", f] as const,
};

// ---------------------------------------------------------------- areas

/** GET /super/area */
export const areaListQuery = (filters: AreaFilters) =>
  pagedListQuery(nodesKeys.areas(filters), NodesApi.getSuperArea, filters);
/** POST /super/area */
export const createArea = (body: CreateAreaBody) => api.call(NodesApi.postSuperArea, { body });
/** PATCH /super/area */
export const updateArea = (body: UpdateAreaBody) => api.call(NodesApi.patchSuperArea, { body });
/** DELETE /super/area: refused (2001) while nodes use the area */
export const deleteArea = (area_id: number) => api.call(NodesApi.deleteSuperArea, { body: { area_id } });

// ---------------------------------------------------------------- network types

/** GET /super/node/netType */
export const netTypeListQuery = (filters: NetTypeFilters) =>
  pagedListQuery(nodesKeys.netTypes(filters), NodesApi.getSuperNodeNetType, filters);
/** POST /super/node/netType */
export const createNetType = (body: CreateNetTypeBody) => api.call(NodesApi.postSuperNodeNetType, { body });
/** PATCH /super/node/netType */
export const updateNetType = (body: UpdateNetTypeBody) => api.call(NodesApi.patchSuperNodeNetType, { body });
/** DELETE /super/node/netType: built-in and used types are refused */
export const deleteNetType = (id: number) => api.call(NodesApi.deleteSuperNodeNetType, { body: { id } });

// ---------------------------------------------------------------- store levels

/** GET /super/plan/level */
export const levelListQuery = (filters: LevelFilters) =>
  pagedListQuery(nodesKeys.levels(filters), NodesApi.getSuperPlanLevel, filters);
/** POST /super/plan/level */
export const createLevel = (body: CreateLevelBody) => api.call(NodesApi.postSuperPlanLevel, { body });
/** PATCH /super/plan/level */
export const updateLevel = (body: UpdateLevelBody) => api.call(NodesApi.patchSuperPlanLevel, { body });
/** DELETE /super/plan/level: refused while plans or nodes use it */
export const deleteLevel = (id: number) => api.call(NodesApi.deleteSuperPlanLevel, { body: { id } });

// ---------------------------------------------------------------- nodes (operators)

/** GET /super/node */
export const adminNodeListQuery = (filters: NodeFilters) =>
  pagedListQuery(nodesKeys.adminNodes(filters), NodesApi.getSuperNode, filters);
/** GET /super/node/detail: the row with its dashboard password and plugin secret */
export const nodeDetailQuery = (nodeId: number) =>
  queryOptions({
    queryKey: nodesKeys.detail(nodeId),
    queryFn: ({ signal }) => api.call(NodesApi.getSuperNodeDetail, { query: { node_id: nodeId } }, { signal }),
    staleTime: 0,
  });
/** GET /super/node/setup: frps.toml and install scripts */
export const nodeSetupQuery = (nodeId: number) =>
  queryOptions({
    queryKey: nodesKeys.setup(nodeId),
    queryFn: ({ signal }) => api.call(NodesApi.getSuperNodeSetup, { query: { node_id: nodeId } }, { signal }),
    staleTime: 0,
  });
/** POST /super/node */
export const createNode = (body: CreateNodeBody) => api.call(NodesApi.postSuperNode, { body });
/** PATCH /super/node (any subset; `reset_secret` issues a new plugin secret) */
export const updateNode = (body: UpdateNodeBody) => api.call(NodesApi.patchSuperNode, { body });
/** DELETE /super/node: refused while tunnels use the node */
export const deleteNode = (node_id: number) => api.call(NodesApi.deleteSuperNode, { body: { node_id } });
/** POST /super/node/poll: poll the node's dashboard now (立即检测) */
export const pollNode = (node_id: number) => api.call(FrpApi.postSuperNodePoll, { body: { node_id } });

// ---------------------------------------------------------------- nodes (customers)

/** GET /user/node: the nodes the customer's plan may use */
export const userNodeListQuery = (filters: NodeFilters) =>
  pagedListQuery(nodesKeys.userNodes(filters), NodesApi.getUserNode, filters);
