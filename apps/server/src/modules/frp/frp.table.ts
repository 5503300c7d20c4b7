import type { Generated } from "kysely";

/** The poller's per-proxy state on a node: the last "today" counters seen (frp-protocol.md §6.3). */
export interface ProxyCounterTable {
  node_id: number;
  /** server-side name, "u_<uid>.t_<tun_id>" for Burrow's tunnels */
  proxy_name: string;
  tun_id: number | null;
  /** the node-local (Asia/Shanghai) day the counters belong to */
  day: string;
  last_in: number;
  last_out: number;
  cur_conns: number;
  online: number;
  /** the dashboard's lastStartTime when last seen: a new one with no close time is a fresh stats entry */
  start_time: string;
  /**
   * A day whose last bytes are still to be collected from the proxy's 7-day history, the counters
   * seen on it (tail_in/out), whether they came from a fresh stats entry, and the day the poll
   * that noticed the new day ran (days in between count in full).
   */
  tail_day: string | null;
  tail_until: string | null;
  tail_in: Generated<number>;
  tail_out: Generated<number>;
  tail_fresh: Generated<number>;
  updated_at: string;
  /** since when connections have been open without a pause (as polls saw), null when none */
  conns_since: string | null;
  /** bytes credited to the proxy since conns_since: what the open connections cannot still hold */
  conns_credit: Generated<number>;
}

/** What the last poll of a node saw on its dashboard. */
export interface NodeRuntimeTable {
  node_id: number;
  version: string | null;
  cur_conns: Generated<number>;
  client_counts: Generated<number>;
  /** JSON proxyTypeCount */
  proxy_counts: Generated<string>;
  /** today's server-wide bytes */
  traffic_in: Generated<number>;
  traffic_out: Generated<number>;
  last_poll_at: string | null;
  last_error: string | null;
  /** bumped by every poll that writes traffic: a poll that read an older version gives up */
  counters_version: Generated<number>;
  /** when frps was last seen rotating its day away from Asia/Shanghai midnight (null: never) */
  rollover_skew_at: string | null;
  /** agent-mode nodes: when the node agent last reached the console (stream, lookup or events) */
  agent_seen_at: string | null;
  /** the agent's grace state as it last reported it: null (linked), "entered" or "expired" */
  agent_grace: string | null;
  agent_grace_at: string | null;
}

/** A customer's sessions on a node to be cut (Ping refused) so frps counts their open connections. */
export interface FrpKickTable {
  uid: number;
  node_id: number;
  /** the estimate of uncounted bytes, and the quota left, when the kick was decided */
  inflight: number;
  remaining: number;
  created_at: string;
  /** a safety expiry: the poller renews or lifts it each poll */
  until: string;
}

/** 强制下线: a session (run id) the customer freed; its heartbeats, logins and proxies are refused until `until`. */
export interface FrpEvictionTable {
  uid: number;
  run_id: string;
  tun_id: number;
  node_id: number;
  created_at: string;
  until: string;
}

export interface FrpTables {
  proxy_counters: ProxyCounterTable;
  node_runtime: NodeRuntimeTable;
  frp_kicks: FrpKickTable;
  frp_evictions: FrpEvictionTable;
}
