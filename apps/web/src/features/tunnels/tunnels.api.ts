import type {
  AdminTunnelListQuery,
  AdminUpdateTunnelBody,
  CreateIllegalRuleBody,
  CreateTunnelBody,
  HandleIllegalBody,
  IllegalListQuery,
  IllegalRuleRow,
  MoveTunnelBody,
  TunnelBatchBody,
  TunnelListQuery,
  TunnelScheduleBody,
  UpdateTunnelBody,
} from "@burrow/contract";
import { FrpApi, TrafficApi, TunnelsApi } from "@burrow/contract";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";
import { pagedListQuery } from "@/lib/table-query";
import type { ListFilters } from "@/lib/url-filters";

export type TunnelFilters = ListFilters<TunnelListQuery>;
export type AdminTunnelFilters = ListFilters<AdminTunnelListQuery>;
export type IllegalFilters = ListFilters<IllegalListQuery>;
export type IllegalRuleFilters = { page: number; size: number; kind?: IllegalRuleRow["kind"] };

export const tunnelsKeys = {
  all: ["tunnels"] as const,
  lists: () => [...tunnelsKeys.all, "list"] as const,
  list: (f: TunnelFilters) => [...tunnelsKeys.lists(), f] as const,
  detail: (tunId: number) => [...tunnelsKeys.all, "detail", tunId] as const,
  config: (tunId: number) => [...tunnelsKeys.detail(tunId), "config"] as const,
  visitor: (tunId: number) => [...tunnelsKeys.detail(tunId), "visitor"] as const,
  traffic: (tunId: number, days: number) => [...tunnelsKeys.detail(tunId), "traffic", days] as const,
  conns: (tunId: number, page: number, size: number) =>
    [...tunnelsKeys.detail(tunId), "conns", { page, size }] as const,
  events: (tunId: number, page: number, size: number) =>
    [...tunnelsKeys.detail(tunId), "events", { page, size }] as const,
  admin: () => [...tunnelsKeys.all, "admin"] as const,
  adminList: (f: AdminTunnelFilters) => [...tunnelsKeys.admin(), "list", f] as const,
  illegal: (f: IllegalFilters) => [...tunnelsKeys.admin(), "illegal", f] as const,
  rules: (f: IllegalRuleFilters) => [...tunnelsKeys.admin(), "rules", f] as const,
};

// ---------------------------------------------------------------- customers

/** GET /user/tun */
export const tunnelListQuery = (filters: TunnelFilters) =>
  pagedListQuery(tunnelsKeys.list(filters), TunnelsApi.getUserTun, filters);

/** GET /user/tun/{tunid} */
export const tunnelDetailQuery = (tunId: number) =>
  queryOptions({
    queryKey: tunnelsKeys.detail(tunId),
    queryFn: ({ signal }) => api.call(TunnelsApi.getUserTunTunid, { params: { tunid: tunId } }, { signal }),
  });

/** GET /user/tun/config?tun_id: the frpc.toml of one tunnel and the run commands */
export const tunnelConfigQuery = (tunId: number) =>
  queryOptions({
    queryKey: tunnelsKeys.config(tunId),
    queryFn: ({ signal }) => api.call(TunnelsApi.getUserTunConfig, { query: { tun_id: tunId } }, { signal }),
  });

/** GET /user/tun/{tunid}/visitor: a secret tunnel's visitor-side frpc.toml */
export const tunnelVisitorQuery = (tunId: number) =>
  queryOptions({
    queryKey: tunnelsKeys.visitor(tunId),
    queryFn: ({ signal }) => api.call(TunnelsApi.getUserTunTunidVisitor, { params: { tunid: tunId } }, { signal }),
  });

/** POST /user/tun/{tunid}/secret: a secret tunnel's new secret */
export const rotateTunnelSecret = (tunId: number) =>
  api.call(TunnelsApi.postUserTunTunidSecret, { params: { tunid: tunId } });

/** GET /user/tun/{tunid}/traffic?days */
export const tunnelTrafficQuery = (tunId: number, days: number) =>
  queryOptions({
    queryKey: tunnelsKeys.traffic(tunId, days),
    queryFn: ({ signal }) =>
      api.call(TrafficApi.getUserTunTunidTraffic, { params: { tunid: tunId }, query: { days } }, { signal }),
    placeholderData: keepPreviousData,
  });

/** GET /user/tun/{tunid}/conns: recent visitor connections */
export const tunnelConnsQuery = (tunId: number, page: number, size: number) =>
  queryOptions({
    queryKey: tunnelsKeys.conns(tunId, page, size),
    queryFn: ({ signal }) =>
      api.call(TrafficApi.getUserTunTunidConns, { params: { tunid: tunId }, query: { page, size } }, { signal }),
    placeholderData: keepPreviousData,
  });

/** POST /user/tun: 40001 port/domain taken, 40008 name used, 2001 a plan limit */
export const createTunnel = (body: CreateTunnelBody) => api.call(TunnelsApi.postUserTun, { body });
/** PATCH /user/tun (edit, or `enabled` on/off) */
export const updateTunnel = (body: UpdateTunnelBody) => api.call(TunnelsApi.patchUserTun, { body });
/** DELETE /user/tun */
export const deleteTunnel = (tun_id: number) => api.call(TunnelsApi.deleteUserTun, { body: { tun_id } });
/** POST /user/tun/batch: one action on several tunnels */
export const batchTunnels = (body: TunnelBatchBody) => api.call(TunnelsApi.postUserTunBatch, { body });
/** POST /user/tun/move: the tunnel to another node */
export const moveTunnel = (body: MoveTunnelBody) => api.call(TunnelsApi.postUserTunMove, { body });

/** PUT /user/tun/{tunid}/schedule: 定时开放 (open for a while, until a time, or weekly windows) */
export const setTunnelSchedule = (tunId: number, body: TunnelScheduleBody) =>
  api.call(TunnelsApi.putUserTunTunidSchedule, { params: { tunid: tunId }, body });
/** DELETE /user/tun/{tunid}/schedule: open at all times again */
export const clearTunnelSchedule = (tunId: number) =>
  api.call(TunnelsApi.deleteUserTunTunidSchedule, { params: { tunid: tunId } });

/** GET /user/tun/{tunid}/events: 连接诊断, newest first */
export const tunnelEventsQuery = (tunId: number, page: number, size: number) =>
  queryOptions({
    queryKey: tunnelsKeys.events(tunId, page, size),
    queryFn: ({ signal }) =>
      api.call(TunnelsApi.getUserTunTunidEvents, { params: { tunid: tunId }, query: { page, size } }, { signal }),
    placeholderData: keepPreviousData,
  });

/** POST /user/tun/{tunid}/free: 强制下线 */
export const freeTunnelSession = (tunId: number) => api.call(FrpApi.postUserTunTunidFree, { params: { tunid: tunId } });

// ---------------------------------------------------------------- operators

/** GET /super/tun/list */
export const adminTunnelListQuery = (filters: AdminTunnelFilters) =>
  pagedListQuery(tunnelsKeys.adminList(filters), TunnelsApi.getSuperTunList, filters);

/** PATCH /super/tun: status and banned_reason together (3 locks with a reason, 2 unlocks), rename */
export const adminUpdateTunnel = (body: AdminUpdateTunnelBody) => api.call(TunnelsApi.patchSuperTun, { body });

/** GET /super/tun/illegal */
export const illegalListQuery = (filters: IllegalFilters) =>
  pagedListQuery(tunnelsKeys.illegal(filters), TunnelsApi.getSuperTunIllegal, filters);

/** PATCH /super/tun/illegal: ban (locks the tunnel) or clear a flag */
export const handleIllegal = (body: HandleIllegalBody) => api.call(TunnelsApi.patchSuperTunIllegal, { body });

/** GET /super/tun/illegal/rule */
export const illegalRuleListQuery = (filters: IllegalRuleFilters) =>
  pagedListQuery(tunnelsKeys.rules(filters), TunnelsApi.getSuperTunIllegalRule, filters);

/** POST /super/tun/illegal/rule */
export const createIllegalRule = (body: CreateIllegalRuleBody) =>
  api.call(TunnelsApi.postSuperTunIllegalRule, { body });
/** DELETE /super/tun/illegal/rule */
export const deleteIllegalRule = (id: number) => api.call(TunnelsApi.deleteSuperTunIllegalRule, { body: { id } });
