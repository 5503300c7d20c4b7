import type { NodeSummary } from "@burrow/contract";

/** A node as the customer's node list shows it (上海一区, tcp/udp/http/https, ports 20000-30000), with `o` over it. */
export const nodeSummary = (o: Partial<NodeSummary> = {}): NodeSummary => ({
  node_id: 7,
  name: "上海一区",
  area_id: 1,
  area_name: "华东",
  icp_required: 0,
  net_type_id: 1,
  net_type_name: "BGP",
  level_id: 1,
  level_name: "免费",
  level: 0,
  host: "sh1.example.com",
  bind_port: 7000,
  vhost_http_port: 80,
  vhost_https_port: 443,
  subdomain_host: "frp.example.com",
  port_min: 20000,
  port_max: 30000,
  bandwidth: 0,
  status: 1,
  protocols: ["tcp", "udp", "http", "https"],
  description: "",
  sort: 0,
  load: { clients: 0, proxies: 0, cur_conns: 0, tunnels: 0 },
  ...o,
});
