import { TunnelStatus } from "@burrow/contract";
import type { AppContext } from "../../context";
import { parseJson } from "../../shared/json";
import { type CompiledRule, flagByRules } from "../tunnels/illegal-rules";
import { tunnelDomains } from "../tunnels/tunnels.repository";
import type { ProxyStat } from "./dashboard-client";
import type { PolledTunnel } from "./poll-common";

/** Judges the tunnels online on the node by the operators' rules (rules added later catch old tunnels). */
export async function scanRules(
  ctx: AppContext,
  rules: CompiledRule[],
  nodeId: number,
  subdomainHost: string | null,
  seen: { s: ProxyStat; ref: { tun_id: number } }[],
  tunnels: Map<number, PolledTunnel>,
): Promise<void> {
  if (!rules.length) return;
  for (const { s, ref } of seen) {
    const t = tunnels.get(ref.tun_id);
    if (!s.online || !t || t.status === TunnelStatus.Locked || t.status === TunnelStatus.Deleted) continue;
    await flagByRules(ctx.db, rules, {
      tun_id: t.tun_id,
      uid: t.uid,
      node_id: nodeId,
      tun_name: t.tun_name,
      domains: tunnelDomains(
        { custom_domains: parseJson<string[]>(t.custom_domains, []), subdomain: t.subdomain },
        subdomainHost,
      ),
      remote_port: t.remote_port,
      remote_port_end: t.remote_port_end,
    });
  }
}
