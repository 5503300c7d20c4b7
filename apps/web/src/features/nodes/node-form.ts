import { type AdminNodeRow, type CreateNodeBody, nodeListen, type UpdateNodeBody } from "@burrow/contract";

/** The node form's values (ports left empty are `null`). */
export interface NodeFormValues {
  name: string;
  area_id: number;
  net_type_id: number;
  level_id: number;
  host: string;
  bind_port: number;
  vhost_http_port?: number | null;
  vhost_https_port?: number | null;
  subdomain_host?: string | null;
  port_min: number;
  port_max: number;
  bandwidth: number;
  api_addr: string;
  api_user: string;
  /** blank: generated on create, unchanged on edit */
  api_password?: string;
  description?: string;
  sort: number;
  /** 2 on the shelf, −1 off */
  status: 2 | -1;
  /** 1: frps calls the node agent on the node (docs/deploy.md), 0: frps calls the console */
  agent_mode: 0 | 1;
}

/** What a new node's form starts with: frp's usual ports. */
export const NEW_NODE: Partial<NodeFormValues> = {
  bind_port: 7000,
  vhost_http_port: 80,
  vhost_https_port: 443,
  port_min: 10000,
  port_max: 20000,
  bandwidth: 0,
  api_user: "admin",
  sort: 0,
  status: 2,
  agent_mode: 1,
};

/** The form values of an existing node (its password is never shown: blank keeps it). */
export function nodeToForm(n: AdminNodeRow): NodeFormValues {
  return {
    name: n.name,
    area_id: n.area_id,
    net_type_id: n.net_type_id,
    level_id: n.level_id,
    ...nodeListen(n),
    bandwidth: n.bandwidth,
    api_addr: n.api_addr,
    api_user: n.api_user,
    api_password: "",
    description: n.description,
    sort: n.sort,
    status: n.status === -1 ? -1 : 2,
    agent_mode: n.agent_mode === 1 ? 1 : 0,
  };
}

/**
 * The body of POST /super/node from the form: blank optional fields become null (no http/https,
 * no subdomains) or are left out (password: generated).
 */
export function formToCreateBody(v: NodeFormValues): CreateNodeBody {
  const password = v.api_password?.trim();
  return {
    name: v.name.trim(),
    area_id: v.area_id,
    net_type_id: v.net_type_id,
    level_id: v.level_id,
    host: v.host.trim(),
    bind_port: v.bind_port,
    vhost_http_port: v.vhost_http_port ?? null,
    vhost_https_port: v.vhost_https_port ?? null,
    subdomain_host: v.subdomain_host?.trim() || null,
    port_min: v.port_min,
    port_max: v.port_max,
    bandwidth: v.bandwidth ?? 0,
    api_addr: v.api_addr.trim(),
    api_user: v.api_user.trim(),
    ...(password ? { api_password: password } : {}),
    description: v.description?.trim() ?? "",
    sort: v.sort ?? 0,
    status: v.status,
    agent_mode: v.agent_mode ?? 0,
  };
}

/** The body of PATCH /super/node: every field, the password only when a new one was typed. */
export function formToUpdateBody(nodeId: number, v: NodeFormValues): UpdateNodeBody {
  return { node_id: nodeId, ...formToCreateBody(v) };
}
