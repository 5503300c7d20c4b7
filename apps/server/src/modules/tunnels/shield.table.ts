import type { Generated } from "kysely";

/** 访客防护's tables (migration 2026-11-28T13-03_visitor_shield); owned by the tunnels module. */
export interface ShieldTables {
  tunnel_shields: TunnelShieldTable;
  shield_bans: ShieldBanTable;
}

export interface TunnelShieldTable {
  tun_id: number;
  uid: number;
  /** JSON array of IPs and CIDRs */
  allow_list: string;
  deny_list: string;
  rule_enabled: number;
  rule_conns: number;
  rule_window_s: number;
  rule_ban_s: number;
  /** bumped by every edit and unban: the plugin processes then forget their own bans and counts */
  version: number;
  updated_at: string;
}

export interface ShieldBanTable {
  id: Generated<number>;
  tun_id: number;
  uid: number;
  node_id: number;
  ip: string;
  reason: string;
  created_at: string;
  until: string;
  lifted_at: string | null;
}
