import { z } from "zod";
import { int, time } from "../answers";
import { TunnelProtocols } from "../enums";

/* Answers of the nodes endpoints (areas, network types, store levels, nodes). */

export const AreaRowAnswer = z.strictObject({
  area_id: int(),
  area_name: z.string(),
  sort: int(),
  icp_required: int().describe("1: custom domains on this area's nodes need an ICP filing number"),
  node_count: int(),
  created_at: time(),
});

export const NetTypeRowAnswer = z.strictObject({
  id: int(),
  name: z.string(),
  builtin: z.boolean().describe("host, IP-vlan, mac-vlan: cannot be deleted"),
  node_count: int(),
  created_at: time(),
});

export const PlanLevelRowAnswer = z.strictObject({
  id: int(),
  name: z.string(),
  level: int().describe("a customer may use a node when their plan's level ≥ the node's"),
  plan_count: int(),
  node_count: int(),
  created_at: time(),
});

export const NodePollResultAnswer = z.strictObject({
  node_id: int(),
  status: int().describe("1 online, 2 offline, 3 exception"),
  error: z.string().nullable(),
  proxies: int(),
  charged: int().describe("bytes charged to customers by this poll"),
  restarted: z.boolean(),
});

const NodeLoadAnswer = z.strictObject({ clients: int(), proxies: int(), cur_conns: int(), tunnels: int() });

const NodeRuntimeAnswer = z.strictObject({
  version: z.string().nullable(),
  traffic_in: int().describe("bytes today (node-local day)"),
  traffic_out: int(),
  proxy_type_count: z.record(z.string(), int()),
  last_poll_at: time().nullable(),
  last_error: z.string().nullable(),
  rollover_skew_at: time().nullable(),
  agent_seen_at: time().nullable(),
  agent_grace: z.enum(["entered", "expired"]).nullable().describe("null: linked to the console"),
  agent_grace_at: time().nullable(),
});

/** GET /user/node rows (never any secret). */
export const NodeSummaryAnswer = z.strictObject({
  host: z.string(),
  bind_port: int(),
  vhost_http_port: int().nullable(),
  vhost_https_port: int().nullable(),
  subdomain_host: z.string().nullable(),
  port_min: int(),
  port_max: int(),
  node_id: int(),
  name: z.string(),
  area_id: int(),
  area_name: z.string(),
  icp_required: int(),
  net_type_id: int(),
  net_type_name: z.string(),
  level_id: int(),
  level_name: z.string(),
  level: int(),
  bandwidth: int().describe("Mbps per tunnel, 0 = no node cap"),
  status: int().describe("1 online, 2 offline, 3 exception, −1 off shelf"),
  protocols: z.array(z.enum(TunnelProtocols)),
  description: z.string(),
  sort: int(),
  load: NodeLoadAnswer,
});

export const AdminNodeRowAnswer = NodeSummaryAnswer.extend({
  agent_mode: int().describe("1: frps calls the node agent; 0: frps calls the console"),
  api_addr: z.string(),
  api_user: z.string(),
  runtime: NodeRuntimeAnswer,
  created_at: time(),
});

export const AdminNodeDetailAnswer = AdminNodeRowAnswer.extend({
  api_password: z.string(),
  plugin_secret: z.string(),
});

export const NodeSetupAnswer = z.strictObject({
  node_id: int(),
  plugin_url: z.string(),
  frps_toml: z.string(),
  install: z.strictObject({ host: z.string(), ipvlan: z.string(), macvlan: z.string(), binary: z.string() }),
  recommended: z.enum(["host", "ipvlan", "macvlan", "binary"]),
  frp_version: z.string(),
  agent_mode: int(),
  agent_install: z.string().nullable(),
  agent_missing: z.string().nullable().describe("why agent_install is null"),
});
