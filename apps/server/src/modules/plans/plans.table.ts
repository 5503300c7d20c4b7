import type { Generated, Selectable } from "kysely";

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

/** Owned by the plans module (their store levels are the nodes module's catalogue). */
export interface PlanTables {
  plans: PlanTable;
}
