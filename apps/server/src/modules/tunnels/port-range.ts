import { frpRangeProxyLocalName, portRangeProblem } from "@burrow/contract";
import { invalid } from "../../shared/errors";
import type { NodeRow } from "../nodes/nodes.table";
import type { TunnelRow } from "./tunnels.table";

/*
 * Port-range tunnels in frpc.toml. frpc's Go-template range helpers (`parseNumberRangePair`,
 * frp #4073) exist only since frpc v0.56.0; v0.52.x fails to parse such a file. So a range is
 * written out as one [[proxies]] block per port, which every frpc ≥ 0.52 reads alike: the proxy
 * names are the same ones the template would give ("t_<tun_id>_<port>", port-range.ts in the
 * contract), and the plugin checks each against the tunnel's range.
 */

/**
 * The tunnel as frpc's proxies: itself, or one copy per port of its range. As frp's own range
 * mapping pairs a local range with a remote one, remote port remote_port + i forwards to local
 * port local_port + i (6000–6010 → 127.0.0.1:8000–8010).
 */
export function portProxies(t: TunnelRow): TunnelRow[] {
  if (!t.remote_port || !t.remote_port_end || t.remote_port_end <= t.remote_port) return [t];
  const out: TunnelRow[] = [];
  for (let i = 0; i <= t.remote_port_end - t.remote_port; i++)
    out.push({ ...t, remote_port: t.remote_port + i, local_port: t.local_port + i });
  return out;
}

/**
 * Credits summed per tunnel and day: a port-range tunnel's proxies each credit it, and one upsert
 * statement may not touch a row twice (PostgreSQL refuses "ON CONFLICT DO UPDATE … a second time").
 */
export function mergeCredits<C extends { tun_id: number; day: string; traffic_in: number; traffic_out: number }>(
  credits: C[],
): C[] {
  const byKey = new Map<string, C>();
  for (const c of credits) {
    const key = `${c.tun_id}/${c.day}`;
    const had = byKey.get(key);
    if (had)
      byKey.set(key, {
        ...had,
        traffic_in: had.traffic_in + c.traffic_in,
        traffic_out: had.traffic_out + c.traffic_out,
      });
    else byKey.set(key, c);
  }
  return [...byKey.values()];
}

/** The frpc-side proxy name of one port's copy of a range tunnel (portProxies). */
export const rangeProxyName = (t: Pick<TunnelRow, "tun_id" | "remote_port">): string =>
  frpRangeProxyLocalName(t.tun_id, t.remote_port ?? 0);

/**
 * Why a range does not fit together, on the node's allowed ports or (its local ports, one per
 * remote port from local_port on) under 65535, or null.
 */
export function rangeProblemOn(
  t: { remote_port: number | null; remote_port_end: number; local_port: number },
  node: Pick<NodeRow, "port_min" | "port_max">,
): string | null {
  const problem = portRangeProblem(t.remote_port, t.remote_port_end);
  if (problem) return problem;
  if (t.remote_port_end > node.port_max) return `远程端口须在 ${node.port_min}-${node.port_max} 之间`;
  const localEnd = t.local_port + (t.remote_port_end - (t.remote_port ?? 0));
  return localEnd > 65535 ? `本地端口 ${t.local_port} 起的 ${localEnd - t.local_port + 1} 个端口超出 65535` : null;
}

/** An edit's range on a tunnel that takes none (http/https, secret types): 400 naming the field. */
export function checkRangeEdit(protocol: string, body: { remote_port_end?: number | null }): void {
  if (body.remote_port_end != null && protocol !== "tcp" && protocol !== "udp")
    throw invalid("remote_port_end", "端口范围仅适用于 tcp、udp 隧道");
}
