import type { TunnelFlag } from "@burrow/contract";
import type { ColumnType, Generated, Selectable } from "kysely";

export interface TunnelTable {
  tun_id: Generated<number>;
  uid: number;
  node_id: number;
  tun_name: string;
  /** tcp, udp, http, https */
  protocol: string;
  local_ip: string;
  local_port: number;
  /** tcp/udp only */
  remote_port: number | null;
  /** tcp/udp port range: its last port (remote_port..remote_port_end, port-range.ts); null = one port */
  remote_port_end: ColumnType<number | null, number | null | undefined, number | null>;
  /** JSON array of lower-case domains (http/https) */
  custom_domains: string;
  subdomain: string | null;
  use_encryption: number;
  use_compression: number;
  /** Mbps asked for this tunnel, 0 = the plan's */
  bandwidth: number;
  /** 1 on, 0 turned off by its owner */
  enabled: number;
  /** −1 deleted, 1 connected, 2 offline, 3 locked */
  status: number;
  banned_reason: string | null;
  /** JSON TunnelAddon */
  addon: string;
  /** PROXY protocol header frpc sends the local service: off, v1, v2 (tcp/http/https) */
  proxy_protocol: ColumnType<string, string | undefined, string>;
  traffic_in: Generated<number>;
  traffic_out: Generated<number>;
  /** frpc run id of the session that holds the proxy now (set by NewProxy, cleared by CloseProxy) */
  run_id: string | null;
  /**
   * CloseProxy calls of the holder's earlier proxies still to come (frps sends them from a
   * goroutine: after a reconnect or reload the old proxy's close can follow the new NewProxy).
   * The holder's NewProxy adds one; its CloseProxy takes one off, and releases the hold at 0.
   * -1: a hold the poller took from the dashboard, no NewProxy of it counted yet.
   */
  stale_closes: Generated<number>;
  /**
   * A move's old hold (tunnel-batch.ts moveTunnel): the node the tunnel left while a session held
   * its proxy there, and that session's run id; its heartbeats there are refused until the node's
   * dashboard no longer shows the proxy online (poll-status.ts). Null when none.
   */
  moved_node_id: ColumnType<number | null, number | null | undefined, number | null>;
  moved_run_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** 定时开放: JSON TunnelSchedule, null = always open */
  schedule: string | null;
  /** stcp/xtcp/sudp: frp's secretKey (secret-tunnels.ts), null for the other types */
  secret_key: ColumnType<string | null, string | null | undefined, string | null>;
  last_online_at: string | null;
  created_at: string;
  updated_at: string;
}
export type TunnelRow = Selectable<TunnelTable>;

/** Full domain names held by live tunnels, unique per node. */
export interface TunnelDomainTable {
  node_id: number;
  domain: string;
  tun_id: number;
}

/** Bytes per tunnel per Asia/Shanghai day. */
export interface TunnelTrafficTable {
  tun_id: number;
  day: string;
  uid: number;
  node_id: number;
  traffic_in: number;
  traffic_out: number;
}

/** Visitor connections announced by frps (NewUserConn): one row per tunnel and visitor IP per window. */
export interface TunnelConnTable {
  id: Generated<number>;
  tun_id: number;
  uid: number;
  node_id: number;
  proxy_type: string;
  /** the visitor's IP (rows before the aggregation kept ip:port) */
  remote_addr: string;
  /** first connection of the window */
  created_at: string;
  /** connections the row stands for */
  conn_count: ColumnType<number, number | undefined, number>;
  /** last connection of the window; null on rows from before the aggregation */
  last_at: string | null;
}

/** Operator rules that flag tunnels as illegal. */
export interface IllegalRuleTable {
  id: Generated<number>;
  /** keyword | port */
  kind: string;
  value: string;
  note: string;
  created_at: string;
}

/** A tunnel flagged as illegal, by a rule or a report, and what the operator decided. */
export interface TunnelFlagTable extends Omit<TunnelFlag, "id" | "source"> {
  id: Generated<number>;
  /** rule | report */
  source: string;
}

/** 连接诊断: one decision about a tunnel (tun_id 0: about its owner's sessions on the node), `count` times in `minute`. */
export interface TunnelEventTable {
  id: Generated<number>;
  tun_id: number;
  uid: number;
  node_id: number;
  kind: string;
  reason: string;
  minute: string;
  count: number;
  first_at: string;
  last_at: string;
}

export interface TunnelTables {
  tunnels: TunnelTable;
  tunnel_domains: TunnelDomainTable;
  tunnel_traffic: TunnelTrafficTable;
  tunnel_conns: TunnelConnTable;
  illegal_rules: IllegalRuleTable;
  tunnel_flags: TunnelFlagTable;
  tunnel_events: TunnelEventTable;
}
