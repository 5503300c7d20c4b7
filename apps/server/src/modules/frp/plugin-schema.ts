/**
 * The frps plugin contents Burrow accepts (frp-protocol.md §1.5), as zod schemas. A plugin request
 * comes from a node, but its content is what the customer's frpc sent: a wrongly typed field
 * (`custom_domains: "x.com"`, `subdomain: 5`), a missing `run_id` or a field Burrow does not
 * offer is refused with a 200 reject naming the field, which frpc shows, instead of an HTTP 500 or
 * a decision on half-read data. Fields are only checked, never copied: the decision uses (and
 * NewProxy answers with) the request's own object.
 */
import { z } from "zod";

const str = z.string().max(4096);
const metas = z.record(z.string().max(256), z.string().max(4096));
/** frps sends the session's run id with every op after Login: Burrow ties sessions to it. */
const userInfo = z.object({
  user: str,
  metas: metas.nullable().optional(),
  run_id: z.string().min(1, "缺少 run_id").max(64),
});
const port = z.number().int().min(0).max(65535);
const strings = z.array(str).max(100);

const login = z.object({
  user: str.optional(),
  metas: metas.nullable().optional(),
  run_id: z.string().max(64).optional(),
  privilege_key: str.optional(),
  timestamp: z.number().optional(),
  client_address: str.optional(),
  pool_count: z.number().optional(),
});

const newProxy = z.object({
  user: userInfo,
  proxy_name: z.string().min(1).max(256),
  proxy_type: z.string().max(16).optional(),
  use_encryption: z.boolean().optional(),
  use_compression: z.boolean().optional(),
  bandwidth_limit: str.optional(),
  bandwidth_limit_mode: str.optional(),
  // A load-balancing group shares one port or domain between proxies: not something Burrow offers.
  group: z.literal("", "不支持负载均衡分组（loadBalancer.group）").optional(),
  group_key: str.optional(),
  metas: metas.nullable().optional(),
  annotations: metas.nullable().optional(),
  remote_port: port.optional(),
  custom_domains: strings.nullable().optional(),
  subdomain: z.string().max(63).optional(),
  locations: strings.nullable().optional(),
  http_user: str.optional(),
  http_pwd: str.optional(),
  host_header_rewrite: str.optional(),
  headers: metas.nullable().optional(),
  response_headers: metas.nullable().optional(),
  route_by_http_user: str.optional(),
});

const withUser = z.object({ user: userInfo });
const newUserConn = z.object({
  user: userInfo,
  proxy_name: z.string().min(1).max(256),
  proxy_type: z.string().max(16).optional(),
  remote_addr: str.optional(),
});
const closeProxy = z.object({ user: userInfo, proxy_name: z.string().max(256).optional() });

const SCHEMAS: Record<string, z.ZodType> = {
  Login: login,
  NewProxy: newProxy,
  Ping: withUser,
  NewWorkConn: withUser,
  NewUserConn: newUserConn,
  CloseProxy: closeProxy,
};

/** Why the op's content is not acceptable (shown to frpc), or null when it is. Unknown ops pass. */
export function contentProblem(op: string, content: unknown): string | null {
  const schema = SCHEMAS[op];
  if (!schema) return null;
  const r = schema.safeParse(content);
  if (r.success) return null;
  const issue = r.error.issues[0];
  const field = issue.path.join(".") || "content";
  let at: unknown = content;
  for (const k of issue.path) at = at && typeof at === "object" ? (at as Record<PropertyKey, unknown>)[k] : undefined;
  const missing = issue.code === "invalid_type" && at === undefined;
  const why = missing ? "缺少此字段" : issue.code === "invalid_type" ? "类型不正确" : issue.message;
  return `插件请求无效：${field} ${why}`;
}
