import type { ConnListQuery, FlowQuery, UserTrafficQuery, UserTrafficRowsQuery } from "@burrow/contract";
import { TrafficApi } from "@burrow/contract";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";
import { pagedListQuery } from "@/lib/table-query";

export type FlowFilters = Partial<Omit<FlowQuery, "page" | "size">> & { page: number; size: number };
export type ConnFilters = Partial<Omit<ConnListQuery, "page" | "size">> & { page: number; size: number };

export const trafficKeys = {
  all: ["traffic"] as const,
  user: (q: UserTrafficQuery) => [...trafficKeys.all, "user", q] as const,
  userRows: (q: UserTrafficRowsQuery) => [...trafficKeys.all, "userRows", q] as const,
  flow: (f: FlowFilters) => [...trafficKeys.all, "flow", f] as const,
  conns: (f: ConnFilters) => [...trafficKeys.all, "conns", f] as const,
};

/** GET /user/traffic: quota, per day, per tunnel over a range (default: the last 30 days) */
export const userTrafficQuery = (q: UserTrafficQuery) =>
  pagedListQuery(trafficKeys.user(q), TrafficApi.getUserTraffic, q);

/** GET /user/traffic/rows: per tunnel per day over a range, newest day first, paged */
export const userTrafficRowsQuery = (q: UserTrafficRowsQuery) =>
  pagedListQuery(trafficKeys.userRows(q), TrafficApi.getUserTrafficRows, q);

/** GET /super/flow: traffic by day, node and user (default: the last 7 days) */
export const flowQuery = (f: FlowFilters) => pagedListQuery(trafficKeys.flow(f), TrafficApi.getSuperFlow, f);

/** GET /super/tun/conns: recent connections (paged) and what is open now */
export const connOverviewQuery = (f: ConnFilters) =>
  queryOptions({
    queryKey: trafficKeys.conns(f),
    queryFn: ({ signal }) => api.call(TrafficApi.getSuperTunConns, { query: f }, { signal }),
    placeholderData: keepPreviousData,
    // Live connections: look again while the page is open.
    refetchInterval: 15_000,
  });
