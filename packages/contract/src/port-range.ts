import { z } from "zod";

/*
 * Port-range tunnels (issue 33 item 5): a tcp/udp tunnel may hold remote_port..remote_port_end on
 * its node, one frp proxy per port (docs/tunnels.md "端口范围"). One home for the bound, the
 * field's schema, the rule between the two ends, the label and the proxy names.
 */

/** The widest range one tunnel may hold (each port is one proxy and one line block of frpc.toml). */
export const MAX_PORT_RANGE = 100;

/** The range's last port; null (or absent) = a single port. */
export const RemotePortEnd = z.number().int().min(1, "端口范围 1-65535").max(65535, "端口范围 1-65535");

/** Why a range's two ends do not make a range, or null (a start of 0 or absent is a random single port). */
export function portRangeProblem(start: number | null | undefined, end: number | null | undefined): string | null {
  if (end === null || end === undefined) return null;
  if (!start) return "端口范围需要填写起始端口";
  if (end <= start) return "结束端口须大于起始端口";
  if (end - start + 1 > MAX_PORT_RANGE) return `端口范围最多 ${MAX_PORT_RANGE} 个端口`;
  return null;
}

/** How many remote ports a tcp/udp tunnel holds. */
export const portCount = (start: number | null, end: number | null): number =>
  start && end && end > start ? end - start + 1 : 1;

/** "6000–6010" for a range, "6000" for one port, "" for none. */
export function formatPorts(start: number | null, end: number | null): string {
  if (!start) return "";
  return end && end > start ? `${start}–${end}` : String(start);
}

/** The frpc-side name of one port's proxy of a range tunnel; frps sees it as "u_<uid>.t_<tun_id>_<port>". */
export const frpRangeProxyLocalName = (tunId: number, port: number): string => `t_${tunId}_${port}`;
