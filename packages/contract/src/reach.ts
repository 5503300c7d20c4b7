import type { DomainRecord } from "./domains";
import type { TunnelProtocol } from "./enums";

/*
 * 外网检测 (issue 33 §9, docs/reach.md): the console checks a tunnel from the internet side, only
 * ever contacting the tunnel's own node (its DNS names are looked up, never fetched).
 */

/** The plain verdict, the first thing to fix first. */
export const ReachVerdicts = [
  "ok",
  "locked",
  "disabled",
  "frpc_offline",
  "local_refused",
  "unreachable",
  "dns_wrong",
  "unverified",
] as const;
export type ReachVerdict = (typeof ReachVerdicts)[number];
export const ReachVerdictLabel: Record<ReachVerdict, string> = {
  ok: "外网可访问",
  locked: "隧道已锁定",
  disabled: "隧道已停用",
  frpc_offline: "frpc 未连接",
  local_refused: "本地服务拒绝连接",
  unreachable: "节点端口不通",
  dns_wrong: "域名未指向节点",
  unverified: "无法确认",
};

/** Checks per customer per hour (counted under the customer's lock). */
export const REACH_LIMIT = 10;
export const REACH_WINDOW_MS = 3_600_000;

/** What one of the tunnel's names resolves to. */
export interface ReachDns {
  name: string;
  /** every A/AAAA address found (the CNAME chain followed by the resolver) */
  addresses: string[];
  /** the name's CNAME target, if it has one */
  cname: string | null;
  /** every address is the node's */
  ok: boolean;
  /** what is wrong, in words; null when ok */
  problem: string | null;
  /** the record to create or fix, when the name is a custom domain that does not point at the node */
  fix: DomainRecord | null;
}

/** The TCP connection to the node's port (the remote port, or the vhost port for http/https). */
export interface ReachConnect {
  host: string;
  /** the node address connected to; null when the node's host did not resolve */
  address: string | null;
  port: number;
  ok: boolean;
  /** connect time; null when it failed */
  ms: number | null;
  detail: string;
}

/** The certificate the node presented for the name (https). */
export interface ReachCert {
  subject: string;
  issuer: string;
  valid_to: string;
  days_left: number;
  /** chain trusted and the name covered */
  trusted: boolean;
  problem: string | null;
}

/** One request through the node's vhost port with the name as Host / SNI. */
export interface ReachHttp {
  url: string;
  status: number | null;
  title: string | null;
  detail: string;
  cert: ReachCert | null;
}

/** POST /user/tun/{tunid}/reach */
export interface ReachReport {
  tun_id: number;
  protocol: TunnelProtocol;
  checked_at: string;
  duration_ms: number;
  verdict: ReachVerdict;
  /** the verdict in one sentence with what to do */
  summary: string;
  /** every problem found, most important first */
  problems: string[];
  node: { host: string; addresses: string[] };
  dns: ReachDns[];
  connect: ReachConnect | null;
  http: ReachHttp[];
  /** checks left in the current hour */
  remaining: number;
}
