import type { Generated, Selectable } from "kysely";

/** Tables of the catalogue a fresh install is seeded with; the tunnels and store modules own their rules. */
export interface AreaTable {
  area_id: Generated<number>;
  area_name: string;
  sort: Generated<number>;
  created_at: string;
}

export interface NetTypeTable {
  id: Generated<number>;
  name: string;
  created_at: string;
}

export interface PlanLevelTable {
  id: Generated<number>;
  name: string;
  level: number;
  created_at: string;
}

export interface PlanTable {
  id: Generated<number>;
  name: string;
  tag: string;
  simple_desc: string;
  /** traffic in GB per period */
  traffic: number;
  /** order type it is sold as: 2 plan subscription, 3 traffic pack */
  type: number;
  level_id: number;
  sort: number;
  /** Mbps */
  bandwidth: number;
  tunnel_limit: number;
  tunnel_peer_port_limit: number;
  monthly_fee: number | null;
  monthly_fee_discount: number;
  quarterly_fee: number | null;
  quarterly_fee_discount: number;
  semiannual_fee: number | null;
  semiannual_fee_discount: number;
  annual_fee: number | null;
  annual_fee_discount: number;
  on_sale: number;
  is_default: number;
  created_at: string;
}
export type PlanRow = Selectable<PlanTable>;

export interface SubscriptionTable {
  id: Generated<number>;
  uid: number;
  plan_id: number;
  /** 2 plan, 3 traffic pack */
  kind: number;
  period: string | null;
  start_at: string;
  /** null: never expires (the free plan) */
  end_at: string | null;
  traffic_quota: number;
  traffic_used: Generated<number>;
  status: number;
  trade_id: string | null;
  created_at: string;
  /** fen paid for it over its life (purchase and extensions): the base of pro-rata upgrade credit */
  paid_amount: Generated<number>;
  /** fen it has given back: upgrade credit drawn from it, refunds paid from it (subscriptions/value.ts) */
  given_back: Generated<number>;
}
export type SubscriptionRow = Selectable<SubscriptionTable>;

export interface NodeTable {
  node_id: Generated<number>;
  name: string;
  area_id: number;
  net_type_id: number;
  /** minimum store level (plan_levels.id) a customer's plan needs */
  level_id: number;
  host: string;
  bind_port: number;
  vhost_http_port: number | null;
  vhost_https_port: number | null;
  subdomain_host: string | null;
  port_min: number;
  port_max: number;
  bandwidth: number;
  status: number;
  api_addr: string;
  api_user: string;
  api_password: string;
  plugin_secret: string;
  description: string;
  sort: number;
  created_at: string;
}
export type NodeRow = Selectable<NodeTable>;

export interface CatalogTables {
  areas: AreaTable;
  net_types: NetTypeTable;
  plan_levels: PlanLevelTable;
  plans: PlanTable;
  subscriptions: SubscriptionTable;
  nodes: NodeTable;
}
