import { z } from "zod";
import { optionalInt, optionalText, PageQuery } from "./common";
import { parseCustomDomain } from "./custom-domain";
import { isSecretProtocol, ProxyProtocols, TunnelProtocols } from "./enums";
import { HOSTNAME_RE, Id, IPV4_RE, PortNumber } from "./nodes";
import { portRangeProblem, RemotePortEnd } from "./port-range";
import type { TunnelSchedule } from "./tunnel-schedule";

/** Tunnel names: letters (any script), digits, "_" and "-"; the frp proxy name is derived from tun_id instead. */
export const TunnelName = z
  .string()
  .trim()
  .min(1, "请输入隧道名称")
  .max(32, "隧道名称最多 32 个字符")
  .regex(/^[\p{L}\p{N}_-]+$/u, "隧道名称只能包含文字、数字、下划线和短横线");

/** A customer's own domain for http(s) tunnels, in its canonical form (parseCustomDomain: a plain name or `*.<name>`). */
export const CustomDomain = z
  .string()
  .max(300, "域名过长")
  .transform((v, ctx) => {
    const d = parseCustomDomain(v);
    if ("domain" in d) return d.domain;
    ctx.addIssue({ code: "custom", input: v, message: d.problem });
    return z.NEVER;
  });

/** The label put in front of the node's subDomainHost (frps refuses "." and "*"). */
export const Subdomain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, "子域名只能包含小写字母、数字和短横线");

/**
 * Extra frp options of http tunnels (frpc `hostHeaderRewrite`, `httpUser`/`httpPassword`,
 * `locations`). Stored as the tunnel's `addon`.
 */
/** frpc `hostHeaderRewrite`: a host name or IPv4 address, or empty. */
export const HostHeaderRewrite = z
  .string()
  .trim()
  .max(253, "Host 头最多 253 个字符")
  .refine((v) => v === "" || HOSTNAME_RE.test(v.toLowerCase()) || IPV4_RE.test(v), "Host 头格式不正确");

/** frpc `httpUser`: basic auth sends "user:password", so no colon (and no blanks). */
export const HttpUser = z
  .string()
  .max(64, "用户名最多 64 个字符")
  .regex(/^[^\s:]*$/, "用户名不能包含空白或冒号");

/** One of frpc's `locations` (URL path prefixes). */
export const HttpLocation = z
  .string()
  .trim()
  .regex(/^\/[^\s]*$/, "路径须以 / 开头且不含空白")
  .max(200, "路径最多 200 个字符");

export const TunnelAddon = z
  .object({
    host_header_rewrite: HostHeaderRewrite.optional(),
    http_user: HttpUser.optional(),
    http_password: z.string().max(64).optional(),
    locations: z.array(HttpLocation).max(20).optional(),
  })
  .strict();
export type TunnelAddon = z.infer<typeof TunnelAddon>;

/**
 * What operators see instead of a customer's http basic-auth password; sending it back in an
 * addon keeps the stored password.
 */
export const MASKED_PASSWORD = "******";

/** The address frpc forwards to: a host name or IPv4 address. */
export const LocalIp = z
  .string()
  .trim()
  .max(253)
  .refine((v) => IPV4_RE.test(v) || HOSTNAME_RE.test(v.toLowerCase()), "本地地址格式不正确");

const tunnelShape = {
  tun_name: TunnelName,
  node_id: Id,
  protocol: z.enum(TunnelProtocols, { error: "协议只能是 tcp、udp、http、https、stcp、xtcp、sudp" }),
  local_ip: LocalIp.default("127.0.0.1"),
  local_port: PortNumber,
  /** tcp/udp: the public port; 0 or absent = a random free port in the node's range */
  remote_port: z.number().int().min(0).max(65535).optional(),
  /** tcp/udp: the last port of a range starting at remote_port (port-range.ts); null/absent = one port */
  remote_port_end: RemotePortEnd.nullable().optional(),
  /** http/https: customer-owned domains (CNAME/A to the node) */
  custom_domains: z.array(CustomDomain).max(20).optional(),
  /** http/https: label under the node's subdomain host */
  subdomain: z.preprocess((v) => (v === "" ? undefined : v), Subdomain.optional()),
  use_encryption: z.boolean().default(false),
  use_compression: z.boolean().default(false),
  /** Mbps for this tunnel; 0 or absent = the plan's bandwidth */
  bandwidth: z.number().int().min(0).max(100_000).optional(),
  addon: TunnelAddon.optional(),
  /** tcp/http/https: the PROXY protocol header for the local service (the visitor's address) */
  proxy_protocol: z.enum(ProxyProtocols, { error: "PROXY 协议只能是 off、v1 或 v2" }).default("off"),
};

/** POST /user/tun */
export const CreateTunnelBody = z.object(tunnelShape).superRefine((b, ctx) => {
  const web = b.protocol === "http" || b.protocol === "https";
  if (web) {
    if (b.remote_port) ctx.addIssue({ code: "custom", path: ["remote_port"], message: "http(s) 隧道不使用远程端口" });
    if (!b.custom_domains?.length && !b.subdomain)
      ctx.addIssue({ code: "custom", path: ["custom_domains"], message: "请填写自定义域名或子域名" });
  } else {
    const kind = isSecretProtocol(b.protocol) ? "私密" : "tcp/udp";
    if (b.custom_domains?.length)
      ctx.addIssue({ code: "custom", path: ["custom_domains"], message: `${kind} 隧道不使用域名` });
    if (b.subdomain) ctx.addIssue({ code: "custom", path: ["subdomain"], message: `${kind} 隧道不使用域名` });
  }
  // A secret tunnel has no public port: visitors come through a visitor frpc (docs/secret-tunnels.md).
  if (isSecretProtocol(b.protocol) && b.remote_port)
    ctx.addIssue({ code: "custom", path: ["remote_port"], message: "私密隧道（stcp/xtcp/sudp）不使用远程端口" });
  if (b.addon && b.protocol !== "http" && Object.keys(b.addon).length)
    ctx.addIssue({ code: "custom", path: ["addon"], message: "附加选项仅适用于 http 隧道" });
  const rangeProblem =
    b.remote_port_end != null && b.protocol !== "tcp" && b.protocol !== "udp"
      ? "端口范围仅适用于 tcp、udp 隧道"
      : portRangeProblem(b.remote_port, b.remote_port_end);
  if (rangeProblem) ctx.addIssue({ code: "custom", path: ["remote_port_end"], message: rangeProblem });
  if ((b.protocol === "udp" || isSecretProtocol(b.protocol)) && b.proxy_protocol !== "off")
    ctx.addIssue({ code: "custom", path: ["proxy_protocol"], message: "PROXY 协议仅适用于 tcp、http、https 隧道" });
});
export type CreateTunnelBody = z.infer<typeof CreateTunnelBody>;

/** PATCH /user/tun: node and protocol are fixed (delete and create instead); `enabled` turns it on/off. */
export const UpdateTunnelBody = z.object({
  tun_id: Id,
  tun_name: TunnelName.optional(),
  local_ip: LocalIp.optional(),
  local_port: PortNumber.optional(),
  remote_port: tunnelShape.remote_port,
  /** null makes a range tunnel a single port again */
  remote_port_end: tunnelShape.remote_port_end,
  custom_domains: tunnelShape.custom_domains,
  /** "" or null removes the subdomain */
  subdomain: z.preprocess((v) => (v === "" ? null : v), Subdomain.nullable().optional()),
  use_encryption: z.boolean().optional(),
  use_compression: z.boolean().optional(),
  bandwidth: tunnelShape.bandwidth,
  addon: TunnelAddon.optional(),
  enabled: z.boolean().optional(),
  proxy_protocol: z.enum(ProxyProtocols, { error: "PROXY 协议只能是 off、v1 或 v2" }).optional(),
});
export type UpdateTunnelBody = z.infer<typeof UpdateTunnelBody>;

/** DELETE /user/tun (body) */
export const DeleteTunnelBody = z.object({ tun_id: Id });
export type DeleteTunnelBody = z.infer<typeof DeleteTunnelBody>;

const ProtocolFilter = z.preprocess((v) => (v === "" ? undefined : v), z.enum(TunnelProtocols).optional());

/** GET /user/tun */
export const TunnelListQuery = PageQuery.extend({
  node_id: optionalInt(1),
  protocol: ProtocolFilter,
  /** 1 connected, 2 offline, 3 locked */
  status: optionalInt(1, 3),
  /** tunnel name contains */
  name: optionalText(32),
});
export type TunnelListQuery = z.infer<typeof TunnelListQuery>;

/** GET /super/tun/list: the customer filters plus the owner; status −1 lists deleted tunnels. */
export const AdminTunnelListQuery = TunnelListQuery.extend({
  status: optionalInt(-1, 3),
  uid: optionalInt(1),
  /** owner's phone contains */
  phone: optionalText(20),
});
export type AdminTunnelListQuery = z.infer<typeof AdminTunnelListQuery>;

/** PATCH /super/tun: status and banned_reason change together (3 needs a reason; 2 unlocks and clears it). */
export const AdminUpdateTunnelBody = z
  .object({
    tun_id: Id,
    /** 2 offline (unlock), 3 locked, −1 deleted; 1 is only ever set by frp */
    status: z.union([z.literal(-1), z.literal(2), z.literal(3)], { error: "状态只能是 -1、2 或 3" }).optional(),
    banned_reason: z.string().trim().max(200).optional(),
    tun_name: TunnelName.optional(),
    addon: TunnelAddon.optional(),
  })
  .superRefine((b, ctx) => {
    if (b.status === 3 && !b.banned_reason)
      ctx.addIssue({ code: "custom", path: ["banned_reason"], message: "锁定隧道时请输入原因" });
  });
export type AdminUpdateTunnelBody = z.infer<typeof AdminUpdateTunnelBody>;

/** GET /user/tun/config: one tunnel (tun_id) or every tunnel of the customer on one node (node_id). */
export const TunnelConfigQuery = z
  .object({ tun_id: optionalInt(1), node_id: optionalInt(1) })
  .refine((q) => (q.tun_id === undefined) !== (q.node_id === undefined), {
    path: ["tun_id"],
    message: "请指定 tun_id 或 node_id 之一",
  });
export type TunnelConfigQuery = z.infer<typeof TunnelConfigQuery>;

/** /user/tun/{tunid} path */
export const TunIdParams = z.object({ tunid: z.coerce.number().int().min(1) });
/** /super/tun/detail?tun_id= */
export const TunIdQuery = z.object({ tun_id: z.coerce.number().int().min(1) });

/** GET /user/tun/{tunid}/traffic */
export const TunnelTrafficQuery = z.object({ days: z.coerce.number().int().min(1).max(90).default(7) });

/** A tunnel as its owner sees it. */
export interface TunnelView {
  tun_id: number;
  tun_name: string;
  uid: number;
  node_id: number;
  node_name: string;
  protocol: (typeof TunnelProtocols)[number];
  local_ip: string;
  local_port: number;
  remote_port: number | null;
  /** the last port of a port range (remote_port..remote_port_end), null for a single port */
  remote_port_end: number | null;
  custom_domains: string[];
  subdomain: string | null;
  use_encryption: boolean;
  use_compression: boolean;
  /** Mbps asked for this tunnel, 0 = the plan's */
  bandwidth: number;
  /** false: turned off by its owner (frps refuses it) */
  enabled: boolean;
  /** −1 deleted, 1 connected, 2 offline, 3 locked */
  status: number;
  banned_reason: string | null;
  addon: TunnelAddon;
  /** PROXY protocol header frpc sends the local service ("off" none) */
  proxy_protocol: (typeof ProxyProtocols)[number];
  /** name of the proxy on frps ("u_<uid>.t_<tun_id>") */
  proxy_name: string;
  /** what to share: host:port for tcp/udp, URLs for http(s) */
  addresses: string[];
  /** all-time bytes, visitor → local service / local service → visitor */
  traffic_in: number;
  traffic_out: number;
  today_in: number;
  today_out: number;
  last_online_at: string | null;
  created_at: string;
  updated_at: string;
  /** 定时开放, null: always open */
  schedule: TunnelSchedule | null;
  /** "将于 18:00 关闭" / "将于 周一 09:00 开放" / "定时开放已结束", null without a schedule */
  schedule_note: string | null;
}

/** GET /user/tun/{tunid} */
export interface TunnelDetail extends TunnelView {
  node: { host: string; bind_port: number; status: number };
  /** visitor connections open now (last poll) */
  cur_conns: number;
  /** stcp/xtcp/sudp: frp's secretKey, shown to the owner only (null for the other types) */
  secret_key: string | null;
}

/** GET /super/tun/list rows */
export interface AdminTunnelRow extends TunnelView {
  phone: string;
  nickname: string;
  cur_conns: number;
}

/** GET /user/tun/config */
export interface TunnelConfig {
  scope: "tunnel" | "node";
  node_id: number;
  node_name: string;
  /** suggested file name */
  filename: string;
  /** frpc.toml content */
  toml: string;
  /** one-line run commands (the file saved as `filename` next to frpc) */
  commands: { windows: string; macos: string; linux: string };
  /** tunnels in the file */
  tun_ids: number[];
}

// ---------------------------------------------------------------- illegal tunnels

/** Review state of an illegal-tunnel flag. */
export const IllegalStatus = { Pending: 1, Banned: 2, Cleared: 3 } as const;
export const IllegalStatusLabel: Record<number, string> = { 1: "待处理", 2: "已封禁", 3: "已忽略" };
/** Where a flag came from. */
export const IllegalSources = ["rule", "report"] as const;
export const IllegalSourceLabel: Record<string, string> = { rule: "规则命中", report: "举报" };
/** keyword: blocked text in tunnel names or domains; port: blocked remote port or range "a-b". */
export const IllegalRuleKinds = ["keyword", "port"] as const;

/** GET /super/tun/illegal */
export const IllegalListQuery = PageQuery.extend({
  status: optionalInt(1, 3),
  source: z.preprocess((v) => (v === "" ? undefined : v), z.enum(IllegalSources).optional()),
  uid: optionalInt(1),
  node_id: optionalInt(1),
  tun_id: optionalInt(1),
});
export type IllegalListQuery = z.infer<typeof IllegalListQuery>;

/** PATCH /super/tun/illegal: ban (locks the tunnel) or clear one flag */
export const HandleIllegalBody = z
  .object({
    id: Id,
    action: z.enum(["ban", "clear"]),
    /** shown to the customer; defaults to the flag's reason */
    banned_reason: z.string().trim().min(1).max(200).optional(),
  })
  .strict();
export type HandleIllegalBody = z.infer<typeof HandleIllegalBody>;

/** One flag on a tunnel (a rule's match or a report), as stored and as operators see it. */
export interface TunnelFlag {
  id: number;
  tun_id: number;
  uid: number;
  node_id: number;
  source: (typeof IllegalSources)[number];
  rule_id: number | null;
  reason: string;
  /** reporter's contact (reports only) */
  reporter: string;
  /** 1 pending, 2 banned, 3 cleared */
  status: number;
  created_at: string;
  handled_at: string | null;
  handled_by: number | null;
}

export interface IllegalFlagRow extends TunnelFlag {
  tun_name: string;
  tun_status: number;
  protocol: string;
  addresses: string[];
  phone: string;
  node_name: string;
}

/** GET /super/tun/illegal/rule */
export const IllegalRuleListQuery = PageQuery.extend({
  kind: z.preprocess((v) => (v === "" ? undefined : v), z.enum(IllegalRuleKinds).optional()),
});
/** POST /super/tun/illegal/rule */
export const CreateIllegalRuleBody = z
  .object({
    kind: z.enum(IllegalRuleKinds),
    /** keyword (case-insensitive) or port "22" / range "6000-6100" */
    value: z.string().trim().min(1).max(100),
    note: z.string().trim().max(200).default(""),
  })
  .superRefine((b, ctx) => {
    if (b.kind !== "port") return;
    const m = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(b.value);
    const lo = m ? Number(m[1]) : 0;
    const hi = m?.[2] ? Number(m[2]) : lo;
    if (!m || lo < 1 || hi > 65535 || lo > hi)
      ctx.addIssue({ code: "custom", path: ["value"], message: "端口规则应为 22 或 6000-6100" });
  });
export type CreateIllegalRuleBody = z.infer<typeof CreateIllegalRuleBody>;
/** DELETE /super/tun/illegal/rule (body) */
export const DeleteIllegalRuleBody = z.object({ id: Id });

export interface IllegalRuleRow {
  id: number;
  kind: (typeof IllegalRuleKinds)[number];
  value: string;
  note: string;
  /** flags this rule raised */
  hits: number;
  created_at: string;
}

/** POST /public/abuse: anyone may report a tunnel by its address. */
export const AbuseReportBody = z.object({
  /** host:port, a domain, or a URL */
  target: z.string().trim().min(1, "请输入被举报的地址").max(300),
  reason: z.string().trim().min(2, "请说明举报原因").max(500),
  contact: z.string().trim().max(100).default(""),
});
export type AbuseReportBody = z.infer<typeof AbuseReportBody>;

/**
 * 连接诊断 (connection doctor): what the console decided about a tunnel. `login` and `ping` rows
 * are about the owner's frpc sessions on the tunnel's node (not one proxy), the others about the
 * tunnel itself. PluginDecisionKinds: the ones the frp plugin records itself (its DecisionWriter's
 * kind), the only ones a node agent may report; the others are the console's own (login_ok comes
 * with a login, session_freed is counted by 强制下线's rate limit).
 */
export const PluginDecisionKinds = [
  "login_refused",
  "proxy_ok",
  "proxy_refused",
  "proxy_held",
  "ping_refused",
  "visitor_refused",
] as const;
export type PluginDecisionKind = (typeof PluginDecisionKinds)[number];
export const TunnelEventKinds = [
  "login_ok",
  ...PluginDecisionKinds,
  "poller",
  "locked",
  "unlocked",
  "session_freed",
  /** a custom domain its owner held through a wildcard went to the customer who verified it exactly */
  "domain_removed",
] as const;
export type TunnelEventKind = (typeof TunnelEventKinds)[number];

/** What the customer can do about a refusal: the page's button or link. */
export const TunnelEventFixes = ["config", "traffic", "free_session", "appeal"] as const;
export type TunnelEventFix = (typeof TunnelEventFixes)[number];

/** GET /user/tun/{tunid}/events: newest first, the last 7 days. */
export const TunnelEventQuery = PageQuery;
export type TunnelEventQuery = z.infer<typeof TunnelEventQuery>;

export interface TunnelEventRow {
  id: number;
  kind: TunnelEventKind;
  /** the exact reason frpc was sent (or what happened, for allowed calls and operators' acts) */
  reason: string;
  /** the fix offered for it, null when none */
  fix: TunnelEventFix | null;
  /** identical events within the minute, collapsed into this row */
  count: number;
  /** first and last time within the minute */
  first_at: string;
  last_at: string;
}
