/**
 * The frps plugin contents Burrow accepts (frp-protocol.md §1.5), as zod schemas. A plugin request
 * comes from a node, but its content is what the customer's frpc sent: a wrongly typed field
 * (`custom_domains: "x.com"`, `subdomain: 5`), a missing `run_id` or a field Burrow does not
 * offer is refused with a 200 reject naming the field, which frpc shows, instead of an HTTP 500 or
 * a decision on half-read data. Fields are only checked, never copied: the decision uses (and
 * NewProxy answers with) the request's own object.
 */
import { z } from "zod";

/**
 * A field's zod schema, and a hand-written check of the same constraints for the hot path: `ok`
 * never accepts what the schema refuses (plugin-schema.test.ts checks this on random contents),
 * and zod runs only on contents `ok` did not accept, to name the field. zod costs microseconds
 * per object and runs for every visitor connection; the check allocates nothing.
 */
interface Field {
  schema: z.ZodType;
  ok: (v: unknown) => boolean;
}

const field = (schema: z.ZodType, ok: (v: unknown) => boolean): Field => ({ schema, ok });
const isString =
  (max: number, min = 0) =>
  (v: unknown) =>
    typeof v === "string" && v.length >= min && v.length <= max;
const string = (max: number) => field(z.string().max(max), isString(max));
const optional = (f: Field) => field(f.schema.optional(), (v) => v === undefined || f.ok(v));
const nullish = (f: Field) => field(f.schema.nullable().optional(), (v) => v === undefined || v === null || f.ok(v));
/** A JSON object (what z.object and z.record accept, for a parsed body). */
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && Object.getPrototypeOf(v) === Object.prototype;

function object(shape: Record<string, Field>): Field {
  const keys = Object.keys(shape);
  const checks = keys.map((k) => shape[k].ok);
  const schema = z.object(Object.fromEntries(keys.map((k) => [k, shape[k].schema])));
  return field(schema, (v) => {
    if (!isObject(v)) return false;
    for (let i = 0; i < keys.length; i++) if (!checks[i](v[keys[i]])) return false;
    return true;
  });
}

const str = string(4096);
const isText = isString(4096);
const number = field(z.number(), (v) => typeof v === "number" && Number.isFinite(v));
const boolean = field(z.boolean(), (v) => typeof v === "boolean");
const metas = field(z.record(z.string().max(256), z.string().max(4096)), (v) => {
  if (!isObject(v)) return false;
  for (const k in v) if (k.length > 256 || !isText(v[k])) return false;
  return true;
});
/** frps sends the session's run id with every op after Login: Burrow ties sessions to it. */
const userInfo = object({
  user: str,
  metas: nullish(metas),
  run_id: field(z.string().min(1, "缺少 run_id").max(64), isString(64, 1)),
});
const port = field(
  z.number().int().min(0).max(65535),
  (v) => typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 65535,
);
const strings = field(z.array(str.schema).max(100), (v) => Array.isArray(v) && v.length <= 100 && v.every(str.ok));
const proxyName = field(z.string().min(1).max(256), isString(256, 1));

const login = object({
  user: optional(str),
  metas: nullish(metas),
  run_id: optional(string(64)),
  privilege_key: optional(str),
  timestamp: optional(number),
  client_address: optional(str),
  pool_count: optional(number),
});

const newProxy = object({
  user: userInfo,
  proxy_name: proxyName,
  proxy_type: optional(string(16)),
  use_encryption: optional(boolean),
  use_compression: optional(boolean),
  bandwidth_limit: optional(str),
  bandwidth_limit_mode: optional(str),
  // A load-balancing group shares one port or domain between proxies: not something Burrow offers.
  group: optional(field(z.literal("", "不支持负载均衡分组（loadBalancer.group）"), (v) => v === "")),
  group_key: optional(str),
  metas: nullish(metas),
  annotations: nullish(metas),
  remote_port: optional(port),
  custom_domains: nullish(strings),
  subdomain: optional(string(63)),
  locations: nullish(strings),
  http_user: optional(str),
  http_pwd: optional(str),
  host_header_rewrite: optional(str),
  headers: nullish(metas),
  response_headers: nullish(metas),
  route_by_http_user: optional(str),
  sk: optional(str),
  allow_users: nullish(strings),
});

const withUser = object({ user: userInfo });
const newUserConn = object({
  user: userInfo,
  proxy_name: proxyName,
  proxy_type: optional(string(16)),
  remote_addr: optional(str),
});
const closeProxy = object({ user: userInfo, proxy_name: optional(string(256)) });

/** A Map, not an object literal: an op named "constructor" or "__proto__" must find nothing. */
export const CONTENT_FIELDS = new Map<string, Field>([
  ["Login", login],
  ["NewProxy", newProxy],
  ["Ping", withUser],
  ["NewWorkConn", withUser],
  ["NewUserConn", newUserConn],
  ["CloseProxy", closeProxy],
]);

/** Why the op's content is not acceptable (shown to frpc), or null when it is. Unknown ops pass. */
export function contentProblem(op: string, content: unknown): string | null {
  const f = CONTENT_FIELDS.get(op);
  if (!f || f.ok(content)) return null;
  const r = f.schema.safeParse(content);
  if (r.success) return null;
  const issue = r.error.issues[0];
  const name = issue.path.join(".") || "content";
  let at: unknown = content;
  for (const k of issue.path) at = at && typeof at === "object" ? (at as Record<PropertyKey, unknown>)[k] : undefined;
  const missing = issue.code === "invalid_type" && at === undefined;
  const why = missing ? "缺少此字段" : issue.code === "invalid_type" ? "类型不正确" : issue.message;
  return `插件请求无效：${name} ${why}`;
}
