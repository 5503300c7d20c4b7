import { z } from "zod";
import { optionalInt, optionalText, PageQuery } from "./common";

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
/** Optional YYYY-MM-DD query value (Asia/Shanghai day); "" means "not given". */
export const optionalDate = z.preprocess(
  (v) => (v === "" ? undefined : v),
  z.string().regex(DATE_RE, "日期格式应为 YYYY-MM-DD").optional(),
);

/** GET /user/traffic: a date range (default: the last 30 days) and optionally one tunnel. */
export const UserTrafficQuery = z.object({
  start_date: optionalDate,
  end_date: optionalDate,
  tun_id: optionalInt(1),
});
export type UserTrafficQuery = z.infer<typeof UserTrafficQuery>;

/** GET /user/traffic/rows: /user/traffic's range and tunnel, paged. */
export const UserTrafficRowsQuery = PageQuery.extend(UserTrafficQuery.shape);
export type UserTrafficRowsQuery = z.infer<typeof UserTrafficRowsQuery>;

/** One day of traffic (bytes). `traffic_in` is visitor → customer's service, `traffic_out` the reverse. */
export interface TrafficDay {
  date: string;
  traffic_in: number;
  traffic_out: number;
}

export interface TrafficQuota {
  plan_name: string | null;
  /** bytes of plan plus live traffic packs */
  total: number;
  used: number;
  left: number;
  usable: boolean;
  /** plan end, null = never */
  end_at: string | null;
}

/** GET /user/traffic */
export interface UserTraffic {
  start_date: string;
  end_date: string;
  quota: TrafficQuota;
  /** every day of the range, zeros included */
  days: TrafficDay[];
  /** per tunnel totals over the range; per tunnel per day is GET /user/traffic/rows (paged) */
  tunnels: { tun_id: number; tun_name: string; status: number; traffic_in: number; traffic_out: number }[];
}

/** GET /user/traffic/rows: one tunnel's traffic on one day (only days with traffic), newest day first, then newest tunnel. */
export interface UserTrafficRow extends TrafficDay {
  tun_id: number;
  /** absent when the tunnel row is gone */
  tun_name?: string;
}

/** GET /user/tun/{tunid}/traffic */
export interface TunnelTrafficChart {
  tun_id: number;
  days: TrafficDay[];
}

/** GET /super/flow: traffic by day, by node and by user over a range (default: last 7 days). */
export const FlowQuery = PageQuery.extend({
  start_date: optionalDate,
  end_date: optionalDate,
  node_id: optionalInt(1),
  uid: optionalInt(1),
});
export type FlowQuery = z.infer<typeof FlowQuery>;

export interface FlowNodeRow {
  node_id: number;
  node_name: string;
  traffic_in: number;
  traffic_out: number;
}

export interface FlowUserRow {
  uid: number;
  phone: string;
  traffic_in: number;
  traffic_out: number;
}

export interface Flow {
  start_date: string;
  end_date: string;
  total_in: number;
  total_out: number;
  days: TrafficDay[];
  nodes: FlowNodeRow[];
  /** users by total traffic, heaviest first, paged by page/size */
  users: { list: FlowUserRow[]; total: number; page: number; size: number };
}

/** GET /super/tun/conns and GET /user/tun/{tunid}/conns */
export const ConnListQuery = PageQuery.extend({
  tun_id: optionalInt(1),
  uid: optionalInt(1),
  node_id: optionalInt(1),
  /** visitor address contains */
  remote_addr: optionalText(60),
});
export type ConnListQuery = z.infer<typeof ConnListQuery>;

/**
 * Visitor connections frps announced with NewUserConn: one row per tunnel and visitor IP per
 * window of about a second, with how many connections came and when the first and last did.
 */
export interface ConnRow {
  id: number;
  tun_id: number;
  tun_name: string;
  uid: number;
  node_id: number;
  node_name: string;
  proxy_type: string;
  /** visitor IP */
  remote_addr: string;
  /** connections from that IP in the window */
  conn_count: number;
  /** first connection */
  created_at: string;
  /** last connection */
  last_at: string;
}

/** A proxy with its current connection count, from the node's dashboard (last poll). */
export interface LiveProxyRow {
  node_id: number;
  node_name: string;
  proxy_name: string;
  tun_id: number | null;
  tun_name: string | null;
  uid: number | null;
  online: boolean;
  cur_conns: number;
  /** today's bytes on the node */
  today_in: number;
  today_out: number;
  updated_at: string;
}

/** GET /super/tun/conns: recent connections (paged) and the proxies with open connections now. */
export interface ConnOverview {
  list: ConnRow[];
  total: number;
  page: number;
  size: number;
  live: LiveProxyRow[];
}
