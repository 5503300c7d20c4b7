import {
  ConnRowAnswer,
  pagedAnswer,
  TunnelTrafficChartAnswer,
  UserTrafficAnswer,
  UserTrafficRowAnswer,
} from "../answers";
import { ConnOverviewAnswer, FlowAnswer } from "../answers/traffic";
import type { Paged } from "../codes";
import { PageQuery } from "../common";
import { endpoint } from "../endpoint";
import {
  ConnListQuery,
  type ConnOverview,
  type ConnRow,
  type Flow,
  FlowQuery,
  type TunnelTrafficChart,
  type UserTraffic,
  UserTrafficQuery,
  type UserTrafficRow,
  UserTrafficRowsQuery,
} from "../traffic";
import { TunIdParams, TunnelTrafficQuery } from "../tunnels";

/** Traffic and visitor connections: per tunnel, per customer, and the operators' flow and conns. */
export const TrafficApi = {
  getUserTunTunidTraffic: endpoint<TunnelTrafficChart>()({
    method: "GET",
    url: "/user/tun/:tunid/traffic",
    access: "user",
    scope: "traffic:read",
    answer: TunnelTrafficChartAnswer,
    summary: "a tunnel's daily traffic over the last days",
    query: TunnelTrafficQuery,
    params: TunIdParams,
  }),
  getUserTunTunidConns: endpoint<Paged<ConnRow>>()({
    method: "GET",
    url: "/user/tun/:tunid/conns",
    access: "user",
    scope: "traffic:read",
    answer: pagedAnswer(ConnRowAnswer),
    summary: "recent visitor connections",
    query: PageQuery,
    params: TunIdParams,
  }),
  getUserTraffic: endpoint<UserTraffic>()({
    method: "GET",
    url: "/user/traffic",
    access: "user",
    scope: "traffic:read",
    answer: UserTrafficAnswer,
    summary: "quota, per day, per tunnel over a range (default: the last 30 days)",
    query: UserTrafficQuery,
  }),
  getUserTrafficRows: endpoint<Paged<UserTrafficRow>>()({
    method: "GET",
    url: "/user/traffic/rows",
    access: "user",
    scope: "traffic:read",
    answer: pagedAnswer(UserTrafficRowAnswer),
    summary: "per tunnel per day over a range (default: the last 30 days), newest day first",
    query: UserTrafficRowsQuery,
  }),
  getSuperTunConns: endpoint<ConnOverview>()({
    method: "GET",
    url: "/super/tun/conns",
    access: "manager",
    answer: ConnOverviewAnswer,
    summary: "recent connections (paged) and what is open now",
    query: ConnListQuery,
  }),
  getSuperFlow: endpoint<Flow>()({
    method: "GET",
    url: "/super/flow",
    access: "manager",
    answer: FlowAnswer,
    summary: "traffic by day, node and user (default: the last 7 days)",
    query: FlowQuery,
  }),
} as const;
