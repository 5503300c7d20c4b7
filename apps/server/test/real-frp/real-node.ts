import type { AdminNodeDetail } from "@burrow/contract";
import { ok, type ServerProcess } from "../child-server";

/**
 * A node on loopback as an operator adds it, on the lowest plan level: frps's bind port at `base`,
 * vhost http and https at +1 and +2, the dashboard at +3, then `remotePorts` remote ports.
 */
export async function createLoopbackNode(
  s: ServerProcess,
  admin: string,
  o: { name: string; base: number; remotePorts: number; dashPassword: string; agentMode?: 0 | 1 },
): Promise<AdminNodeDetail> {
  const get = async <T>(p: string) => ok(await s.api<T>("GET", p, { token: admin }), `GET ${p}`);
  const areas = await get<{ list: { area_id: number }[] }>("/super/area");
  const levels = await get<{ list: { id: number; level: number }[] }>("/super/plan/level");
  const body = {
    name: o.name,
    area_id: areas.list[0].area_id,
    net_type_id: 1,
    level_id: [...levels.list].sort((a, b) => a.level - b.level)[0].id,
    host: "127.0.0.1",
    bind_port: o.base,
    vhost_http_port: o.base + 1,
    vhost_https_port: o.base + 2,
    subdomain_host: "frp.test",
    port_min: o.base + 4,
    port_max: o.base + 3 + o.remotePorts,
    bandwidth: 0,
    api_addr: `http://127.0.0.1:${o.base + 3}`,
    api_user: "admin",
    api_password: o.dashPassword,
    description: "",
    ...(o.agentMode !== undefined && { agent_mode: o.agentMode }),
  };
  return ok(await s.api<AdminNodeDetail>("POST", "/super/node", { token: admin, body }), "POST /super/node");
}
