import { formatPorts, isSecretProtocol, TunnelStatus } from "@burrow/contract";
import type { AppContext } from "../../context";
import { listUserNodes } from "../nodes/nodes.service";
import { getPlanLimits } from "../subscriptions/quota";
import { listUserTunnels } from "../tunnels/tunnels.service";
import { findUserByUid } from "../users/users.repository";

const GB = 1024 ** 3;
const TUNNEL_STATUS: Record<number, string> = {
  [TunnelStatus.Connected]: "在线",
  [TunnelStatus.Offline]: "离线",
  [TunnelStatus.Locked]: "已锁定",
};
const NODE_STATUS: Record<number, string> = { 1: "在线", 2: "离线", 3: "异常", [-1]: "已下架" };

/**
 * What the assistant may know about the asking customer, read through the owners' functions
 * (tunnels, nodes, subscriptions), each scoped to this customer. Only the fields listed here are
 * written, never a token or a password: the frp token is read only to be blanked out of questions.
 */
export interface CustomerFacts {
  /** plain text for the system prompt */
  text: string;
  /** values that must never reach a prompt (the customer's frp token) */
  secrets: string[];
}

export async function customerFacts(ctx: AppContext, uid: number): Promise<CustomerFacts> {
  const [user, limits, tunnels, nodes] = await Promise.all([
    findUserByUid(ctx.db, uid),
    getPlanLimits(ctx.db, uid),
    listUserTunnels(ctx, uid, { page: 1, size: 50 }),
    listUserNodes(ctx, uid, { page: 1, size: 50 }),
  ]);
  const lines: string[] = [];
  lines.push(
    limits
      ? `套餐：${limits.plan_name}，到期 ${limits.end_at ?? "永不"}，流量已用 ${(limits.traffic_used / GB).toFixed(2)} GB / ${(limits.traffic_quota / GB).toFixed(2)} GB，带宽 ${limits.bandwidth || "不限"} Mbps，隧道上限 ${limits.tunnel_limit} 条，${limits.usable ? "可用" : `不可用（${limits.reason ?? "流量已用尽"}）`}`
      : "套餐：没有生效中的套餐",
  );
  lines.push(
    `隧道（共 ${tunnels.total} 条${tunnels.total > tunnels.list.length ? `，列出最新 ${tunnels.list.length} 条` : ""}）：`,
  );
  for (const t of tunnels.list) {
    const target =
      t.protocol === "http" || t.protocol === "https"
        ? t.addresses.join(" ")
        : isSecretProtocol(t.protocol)
          ? "私密隧道（无远程端口，访问方用访问者配置连接）"
          : `远程端口 ${formatPorts(t.remote_port, t.remote_port_end)}`;
    lines.push(
      `- t_${t.tun_id}「${t.tun_name}」${t.protocol}，节点「${t.node_name}」，本地 ${t.local_ip}:${t.local_port}，${target}，${t.enabled ? "" : "已停用，"}${TUNNEL_STATUS[t.status] ?? "未知"}${t.banned_reason ? `（锁定原因：${t.banned_reason}）` : ""}，控制台 /tun/list/${t.tun_id}`,
    );
  }
  if (!tunnels.list.length) lines.push("- 还没有隧道（在 /tun/list/add 创建）");
  lines.push("可用节点：");
  for (const n of nodes.list)
    lines.push(
      `- 「${n.name}」${n.area_name}，地址 ${n.host}:${n.bind_port}，${NODE_STATUS[n.status] ?? "未知"}，协议 ${n.protocols.join("/")}，端口范围 ${n.port_min}-${n.port_max}`,
    );
  if (!nodes.list.length) lines.push("- 没有可用节点（需要生效中的套餐）");
  return { text: lines.join("\n"), secrets: user?.frp_token ? [user.frp_token] : [] };
}

/** Config lines and headers that carry a secret: the value is replaced, the key kept. */
const SECRET_LINE =
  /((?:metadatas\.token|auth\.token|token|password|passwd|api[_-]?key|secret|privilege_token)\s*[=:]\s*)("[^"\n]*"|'[^'\n]*'|[^\s,}\n]+)/gi;
const BEARER = /(bearer\s+)[\w.~+/=-]{8,}/gi;
const API_KEY = /\bsk-[\w-]{16,}\b/g;

/** The question as it may reach a model: known secrets and secret-looking values blanked out. */
export function redactSecrets(text: string, secrets: string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 6) out = out.split(s).join("[已隐藏]");
  return out.replace(SECRET_LINE, "$1[已隐藏]").replace(BEARER, "$1[已隐藏]").replace(API_KEY, "[已隐藏]");
}
