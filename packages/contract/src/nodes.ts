import { z } from "zod";
import { optionalInt, optionalText, PageQuery } from "./common";
import type { TunnelProtocol } from "./enums";

/** A positive database id in a JSON body. */
export const Id = z.number({ error: "请输入 ID" }).int().min(1);
/** A TCP/UDP port in a JSON body. */
export const PortNumber = z.number().int().min(1, "端口范围 1-65535").max(65535, "端口范围 1-65535");

const HOST_LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
/** Lower-case DNS name: labels of letters, digits and hyphens joined by dots (single labels allowed). */
export const HOSTNAME_RE = new RegExp(`^${HOST_LABEL}(?:\\.${HOST_LABEL})*$`);
/** Dotted-quad IPv4 address. */
export const IPV4_RE = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** A host name or IPv4 address (lower-cased). */
export const HostName = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, "请输入主机地址")
  .max(253)
  .refine((v) => IPV4_RE.test(v) || HOSTNAME_RE.test(v), "主机地址格式不正确");

const nullableOptional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === "" ? null : v), schema.nullable().optional());

// ---------------------------------------------------------------- areas

/** GET /super/area */
export const AreaListQuery = PageQuery.extend({ area_name: optionalText(50) });
export type AreaListQuery = z.infer<typeof AreaListQuery>;

/** The name of an area, network type, level or node: required, at most 50 characters, errors naming `what`. */
const entryName = (what: string) => z.string().trim().min(1, `请输入${what}名称`).max(50, `${what}名称最多 50 个字符`);

const AreaName = entryName("地区");
const Sort = z.number().int().min(0).max(1_000_000);

/** POST /super/area */
/** 1: custom domains on this area's nodes need an ICP filing number (mainland China) */
const IcpRequired = z.union([z.literal(0), z.literal(1)], { error: "icp_required 只能是 0 或 1" });
export const CreateAreaBody = z.object({
  area_name: AreaName,
  sort: Sort.optional(),
  icp_required: IcpRequired.optional(),
});
export type CreateAreaBody = z.infer<typeof CreateAreaBody>;
/** PATCH /super/area */
export const UpdateAreaBody = z.object({
  area_id: Id,
  area_name: AreaName.optional(),
  sort: Sort.optional(),
  icp_required: IcpRequired.optional(),
});
export type UpdateAreaBody = z.infer<typeof UpdateAreaBody>;
/** DELETE /super/area (body) */
export const DeleteAreaBody = z.object({ area_id: Id });
export type DeleteAreaBody = z.infer<typeof DeleteAreaBody>;

export interface AreaRow {
  area_id: number;
  area_name: string;
  sort: number;
  /** 1: custom domains on this area's nodes need an ICP filing number */
  icp_required: number;
  /** nodes in this area; a used area cannot be deleted */
  node_count: number;
  created_at: string;
}

// ---------------------------------------------------------------- network types

/** GET /super/node/netType */
export const NetTypeListQuery = PageQuery.extend({ name: optionalText(50) });
export type NetTypeListQuery = z.infer<typeof NetTypeListQuery>;

const NetTypeName = entryName("网络类型");
/** POST /super/node/netType */
export const CreateNetTypeBody = z.object({ name: NetTypeName });
export type CreateNetTypeBody = z.infer<typeof CreateNetTypeBody>;
/** PATCH /super/node/netType */
export const UpdateNetTypeBody = z.object({ id: Id, name: NetTypeName });
export type UpdateNetTypeBody = z.infer<typeof UpdateNetTypeBody>;
/** DELETE /super/node/netType (body): by id or by name */
export const DeleteNetTypeBody = z
  .object({ id: Id.optional(), name: NetTypeName.optional() })
  .refine((b) => b.id !== undefined || b.name !== undefined, { path: ["id"], message: "请指定 id 或 name" });
export type DeleteNetTypeBody = z.infer<typeof DeleteNetTypeBody>;

export interface NetTypeRow {
  id: number;
  name: string;
  /** host 1, IP-vlan 2, mac-vlan 3 (SPEC §3) cannot be deleted: install commands depend on them */
  builtin: boolean;
  node_count: number;
  created_at: string;
}

// ---------------------------------------------------------------- store levels

/** GET /super/plan/level */
export const LevelListQuery = PageQuery.extend({ name: optionalText(50) });
export type LevelListQuery = z.infer<typeof LevelListQuery>;

const LevelName = entryName("等级");
const LevelRank = z.number().int().min(0, "等级范围 0-1000").max(1000, "等级范围 0-1000");
/** POST /super/plan/level */
export const CreateLevelBody = z.object({ name: LevelName, level: LevelRank });
export type CreateLevelBody = z.infer<typeof CreateLevelBody>;
/** PATCH /super/plan/level */
export const UpdateLevelBody = z.object({ id: Id, name: LevelName.optional(), level: LevelRank.optional() });
export type UpdateLevelBody = z.infer<typeof UpdateLevelBody>;
/** DELETE /super/plan/level (body): by id, name or level */
export const DeleteLevelBody = z
  .object({ id: Id.optional(), name: LevelName.optional(), level: LevelRank.optional() })
  .refine((b) => b.id !== undefined || b.name !== undefined || b.level !== undefined, {
    path: ["id"],
    message: "请指定 id、name 或 level",
  });
export type DeleteLevelBody = z.infer<typeof DeleteLevelBody>;

export interface PlanLevelRow {
  id: number;
  name: string;
  /** numeric rank: a customer may use a node when their plan's level ≥ the node's level */
  level: number;
  plan_count: number;
  node_count: number;
  created_at: string;
}

// ---------------------------------------------------------------- nodes

/** GET /super/node */
export const NodeListQuery = PageQuery.extend({
  name: optionalText(50),
  area_id: optionalInt(1),
  net_type_id: optionalInt(1),
  status: optionalInt(-1, 3),
});
export type NodeListQuery = z.infer<typeof NodeListQuery>;

/** frps's dashboard (webServer) address, as Burrow reaches it. */
export const DashboardAddr = z
  .string()
  .trim()
  .max(200, "面板地址最多 200 个字符")
  .regex(/^https?:\/\/[^\s/]+(:\d+)?\/?$/, "请输入 http(s)://主机:端口");

const NodeFields = {
  name: entryName("节点"),
  area_id: Id,
  net_type_id: Id,
  /** minimum store level (plan_levels.id) */
  level_id: Id,
  /** public address customers' frpc connect to and visitors use */
  host: HostName,
  /** frps bindPort */
  bind_port: PortNumber,
  /** frps vhostHTTPPort; null: no http tunnels on this node */
  vhost_http_port: nullableOptional(PortNumber),
  /** frps vhostHTTPSPort; null: no https tunnels */
  vhost_https_port: nullableOptional(PortNumber),
  /** frps subDomainHost; null: no subdomains, custom domains only */
  subdomain_host: nullableOptional(HostName),
  /** remote ports customers may use (frps allowPorts) */
  port_min: PortNumber,
  port_max: PortNumber,
  /** Mbps per tunnel cap on this node; 0 = no node cap */
  bandwidth: z.number().int().min(0).max(100_000),
  /** frps dashboard (webServer) base URL as Burrow reaches it, e.g. http://10.0.0.5:7500 */
  api_addr: DashboardAddr,
  api_user: z.string().trim().min(1).max(64),
  /** generated when omitted */
  api_password: z.string().min(8, "面板密码至少 8 位").max(64),
  description: z.string().trim().max(500),
  sort: Sort,
  /** −1 takes the node off the shelf; 2 puts it (back) on the shelf — the poller then sets 1/2/3 */
  status: z.union([z.literal(-1), z.literal(2)]),
  /** 1: frps calls the node agent on 127.0.0.1 (the production way, docs/deploy.md); 0: frps calls the console */
  agent_mode: z.union([z.literal(0), z.literal(1)], { error: "节点代理模式只能是 0 或 1" }),
};

function checkNodePorts(
  b: {
    bind_port?: number;
    vhost_http_port?: number | null;
    vhost_https_port?: number | null;
    port_min?: number;
    port_max?: number;
  },
  ctx: z.RefinementCtx,
): void {
  if (b.port_min !== undefined && b.port_max !== undefined && b.port_min > b.port_max) {
    ctx.addIssue({ code: "custom", path: ["port_max"], message: "端口上限不能小于下限" });
  }
}

/** POST /super/node */
export const CreateNodeBody = z
  .object({
    ...NodeFields,
    bind_port: NodeFields.bind_port.default(7000),
    bandwidth: NodeFields.bandwidth.default(0),
    api_user: NodeFields.api_user.default("admin"),
    api_password: NodeFields.api_password.optional(),
    description: NodeFields.description.default(""),
    sort: NodeFields.sort.default(0),
    status: NodeFields.status.default(2),
    agent_mode: NodeFields.agent_mode.default(0),
  })
  .superRefine(checkNodePorts);
export type CreateNodeBody = z.infer<typeof CreateNodeBody>;

/** PATCH /super/node: any subset of the fields */
export const UpdateNodeBody = z
  .object({
    node_id: Id,
    name: NodeFields.name.optional(),
    area_id: Id.optional(),
    net_type_id: Id.optional(),
    level_id: Id.optional(),
    host: NodeFields.host.optional(),
    bind_port: PortNumber.optional(),
    vhost_http_port: NodeFields.vhost_http_port,
    vhost_https_port: NodeFields.vhost_https_port,
    subdomain_host: NodeFields.subdomain_host,
    port_min: PortNumber.optional(),
    port_max: PortNumber.optional(),
    bandwidth: NodeFields.bandwidth.optional(),
    api_addr: NodeFields.api_addr.optional(),
    api_user: NodeFields.api_user.optional(),
    api_password: NodeFields.api_password.optional(),
    description: NodeFields.description.optional(),
    sort: NodeFields.sort.optional(),
    status: NodeFields.status.optional(),
    agent_mode: NodeFields.agent_mode.optional(),
    /** generate a new plugin secret (the node's frps.toml must then be updated) */
    reset_secret: z.boolean().optional(),
  })
  .superRefine(checkNodePorts);
export type UpdateNodeBody = z.infer<typeof UpdateNodeBody>;

/** DELETE /super/node (body) */
export const DeleteNodeBody = z.object({ node_id: Id });
export type DeleteNodeBody = z.infer<typeof DeleteNodeBody>;

/** POST /super/node/poll: check the node now (立即检测) instead of waiting for the poller. */
export const PollNodeBody = z.object({ node_id: Id });
export type PollNodeBody = z.infer<typeof PollNodeBody>;

/** What one poll of a node found. */
export interface NodePollResult {
  node_id: number;
  /** 1 online, 2 offline (unreachable), 3 exception (reachable but wrong, e.g. credentials refused) */
  status: number;
  /** why the node is not online, null when it is */
  error: string | null;
  /** Burrow proxies on the node's dashboard */
  proxies: number;
  /** bytes charged to customers by this poll */
  charged: number;
  /** frps restarted since the previous poll */
  restarted: boolean;
}

/** GET /super/node/detail, GET /super/node/setup */
export const NodeIdQuery = z.object({ node_id: z.coerce.number().int().min(1) });
export type NodeIdQuery = z.infer<typeof NodeIdQuery>;

/** What the poller last saw on the node's dashboard. */
export interface NodeLoad {
  /** frpc sessions connected now */
  clients: number;
  /** proxies registered now (all types) */
  proxies: number;
  /** visitor connections open now */
  cur_conns: number;
  /** Burrow tunnels (not deleted) on this node */
  tunnels: number;
}

export interface NodeRuntime {
  /** frps version reported by /api/serverinfo */
  version: string | null;
  /** today's (node-local day) traffic through the node, bytes */
  traffic_in: number;
  traffic_out: number;
  proxy_type_count: Record<string, number>;
  last_poll_at: string | null;
  /** why the last poll failed, null when it succeeded */
  last_error: string | null;
  /**
   * when the poller last saw this frps rotate its "today" counters away from Asia/Shanghai
   * midnight (frps in another timezone or with a wrong clock), null when never
   */
  rollover_skew_at: string | null;
  /** agent-mode nodes: when the node agent last reached the console (null: never) */
  agent_seen_at: string | null;
  /** the agent's grace as it reported it: null (linked), "entered" (console unreachable, deciding from its copy) or "expired" (its policy applies) */
  agent_grace: "entered" | "expired" | null;
  agent_grace_at: string | null;
}

/** Where a node's frps listens and the ports it hands out: stored, shown and written into its set-up alike. */
export interface NodeListen {
  host: string;
  bind_port: number;
  vhost_http_port: number | null;
  vhost_https_port: number | null;
  subdomain_host: string | null;
  port_min: number;
  port_max: number;
}

/** The NodeListen fields of a larger node object (a stored row, an answer row), in their order. */
export const nodeListen = (n: NodeListen): NodeListen => ({
  host: n.host,
  bind_port: n.bind_port,
  vhost_http_port: n.vhost_http_port,
  vhost_https_port: n.vhost_https_port,
  subdomain_host: n.subdomain_host,
  port_min: n.port_min,
  port_max: n.port_max,
});

/** Fields both consoles show. */
export interface NodeSummary extends NodeListen {
  node_id: number;
  name: string;
  area_id: number;
  area_name: string;
  /** 1: custom domains on this node need an ICP filing number (its area's setting) */
  icp_required: number;
  net_type_id: number;
  net_type_name: string;
  level_id: number;
  level_name: string;
  level: number;
  bandwidth: number;
  /** 1 online, 2 offline, 3 exception, −1 off shelf */
  status: number;
  /** protocols tunnels on this node may use */
  protocols: TunnelProtocol[];
  description: string;
  sort: number;
  load: NodeLoad;
}

/** GET /user/node rows (never any secret). */
export type UserNodeRow = NodeSummary;

/** GET /super/node rows. */
export interface AdminNodeRow extends NodeSummary {
  /** 1: frps calls the node agent beside it; 0: frps calls the console directly */
  agent_mode: number;
  api_addr: string;
  api_user: string;
  runtime: NodeRuntime;
  created_at: string;
}

/** GET /super/node/detail: the row plus its secrets (Manager only). */
export interface AdminNodeDetail extends AdminNodeRow {
  api_password: string;
  plugin_secret: string;
}

/** GET /super/node/setup: everything needed to bring up frps for this node. */
export interface NodeSetup {
  node_id: number;
  /** the URL frps calls (secret included) */
  plugin_url: string;
  /** the complete frps.toml */
  frps_toml: string;
  /** install scripts by variant; `recommended` names the one for the node's network type */
  install: { host: string; ipvlan: string; macvlan: string; binary: string };
  recommended: "host" | "ipvlan" | "macvlan" | "binary";
  frp_version: string;
  /** 1: frps.toml points at the node agent on 127.0.0.1 and `agent` installs it */
  agent_mode: number;
  /**
   * The node agent's one-line installer (downloads the agent from the console, writes
   * /etc/burrow-agent.env and the burrow-agent systemd unit); null with `agent_missing` saying why
   */
  agent_install: string | null;
  agent_missing: string | null;
}
