import type { NodeListen } from "@burrow/contract";
import type { Generated, Selectable } from "kysely";

export interface AreaTable {
  area_id: Generated<number>;
  area_name: string;
  sort: Generated<number>;
  /** 1: custom domains on this area's nodes need an ICP filing number (mainland China) */
  icp_required: Generated<number>;
  created_at: string;
}

export interface NetTypeTable {
  id: Generated<number>;
  name: string;
  created_at: string;
}

export interface NodeTable extends NodeListen {
  node_id: Generated<number>;
  name: string;
  area_id: number;
  net_type_id: number;
  /** minimum store level (plan_levels.id) a customer's plan needs */
  level_id: number;
  bandwidth: number;
  status: number;
  api_addr: string;
  api_user: string;
  api_password: string;
  plugin_secret: string;
  /** 1: frps calls the node agent beside it (docs/deploy.md), 0: frps calls the console (direct mode) */
  agent_mode: Generated<number>;
  description: string;
  sort: number;
  created_at: string;
}
export type NodeRow = Selectable<NodeTable>;

export interface PlanLevelTable {
  id: Generated<number>;
  name: string;
  level: number;
  created_at: string;
}

/** Owned by the nodes module: the catalogue of areas, network types, store levels and nodes. */
export interface NodeTables {
  areas: AreaTable;
  net_types: NetTypeTable;
  plan_levels: PlanLevelTable;
  nodes: NodeTable;
}
