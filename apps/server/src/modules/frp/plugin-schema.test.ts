import { CONTENT_FIELDS, contentProblem } from "@burrow/frp-decision";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

// The hot path's hand-written checks must agree with the zod schemas they stand in for: a content
// the check accepts and zod refuses would reach a decision unvalidated.

/** Values at and past every constraint: lengths, integers, ranges, types (JSON.parse("1e400") is Infinity). */
const SCALARS = [
  ...["", "x", "g", "0123456789abcdef"],
  ...[16, 17, 63, 64, 65, 256, 257, 4096, 4097].map((n) => "a".repeat(n)),
  ...[0, -1, 1, 6000, 65535, 65536, 1.5, 1e300, -0, Number.POSITIVE_INFINITY],
  ...[true, false, null],
];
const value = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...SCALARS) },
  {
    weight: 1,
    arbitrary: fc.dictionary(
      fc.constantFrom("token", "k", "a".repeat(256), "a".repeat(257)),
      fc.constantFrom(...SCALARS),
      {
        maxKeys: 3,
        noNullPrototype: true,
      },
    ),
  },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(...SCALARS), { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.constant(Array.from({ length: 101 }, () => "x.com")) },
);

/** A valid value of every field the schemas know. */
const VALID: Record<string, unknown> = {
  user: { user: "u_1", metas: { token: "t" }, run_id: "8e2f0c4b9a1d7e35" },
  metas: { tunnel_id: "2" },
  run_id: "8e2f0c4b9a1d7e35",
  privilege_key: "0123456789abcdef",
  timestamp: 1753279200,
  client_address: "203.0.113.7:51234",
  pool_count: 1,
  proxy_name: "u_1.t_2",
  proxy_type: "http",
  use_encryption: false,
  use_compression: true,
  bandwidth_limit: "1MB",
  bandwidth_limit_mode: "client",
  group: "",
  group_key: "",
  annotations: null,
  remote_port: 6000,
  custom_domains: ["a.com"],
  subdomain: "alice",
  locations: ["/", "/api"],
  http_user: "u",
  http_pwd: "p",
  host_header_rewrite: "127.0.0.1",
  headers: { "x-a": "b" },
  response_headers: {},
  route_by_http_user: "",
  remote_addr: "198.51.100.9:40112",
};

/**
 * An op's content with every field valid, then up to two fields (or user's own fields) dropped
 * and up to two set to one of the values above: most contents differ from a valid one in one
 * place, which is where a check and a schema could disagree.
 */
function contents(op: string, schema: unknown) {
  const keys = Object.keys((schema as { shape: object }).shape);
  const base = Object.fromEntries(keys.map((k) => [k, op === "Login" && k === "user" ? "u_1" : VALID[k]]));
  const paths = [...keys, "user.user", "user.metas", "user.run_id", "client_spec"];
  return fc
    .record({
      drop: fc.subarray(paths, { maxLength: 2 }),
      set: fc.dictionary(fc.constantFrom(...paths), value, { maxKeys: 2, noNullPrototype: true }),
    })
    .map(({ drop, set }) => {
      const c = structuredClone(base) as Record<string, Record<string, unknown>>;
      const at = (path: string): [Record<string, unknown> | undefined, string] => {
        const [a, b] = path.split(".");
        return b === undefined ? [c, a] : [isPlain(c[a]) ? c[a] : undefined, b];
      };
      for (const path of drop) {
        const [o, k] = at(path);
        if (o) delete o[k];
      }
      for (const [path, v] of Object.entries(set)) {
        const [o, k] = at(path);
        if (o) o[k] = v;
      }
      return c;
    });
}
const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

describe("plugin content checks", () => {
  for (const [op, f] of CONTENT_FIELDS) {
    it(`${op}: the fast check accepts exactly what the zod schema accepts`, () => {
      fc.assert(
        fc.property(contents(op, f.schema), (c) => {
          expect(f.ok(c)).toBe(f.schema.safeParse(c).success);
        }),
        { numRuns: 5000 },
      );
    });
  }

  it("accepts what frps sends for each op without zod, and names the field of what it refuses", () => {
    const user = { user: "u_1", metas: { token: "t" }, run_id: "8e2f0c4b9a1d7e35" };
    const valid = {
      Login: { user: "u_1", metas: { token: "t" }, privilege_key: "k", timestamp: 1, pool_count: 1, client_spec: {} },
      NewProxy: { user, proxy_name: "u_1.t_2", proxy_type: "http", custom_domains: ["a.com"], subdomain: "" },
      Ping: { user, timestamp: 1 },
      NewWorkConn: { user, run_id: "8e2f0c4b9a1d7e35" },
      NewUserConn: { user, proxy_name: "u_1.t_2", proxy_type: "tcp", remote_addr: "198.51.100.9:40112" },
      CloseProxy: { user, proxy_name: "u_1.t_2" },
    };
    for (const [op, content] of Object.entries(valid)) {
      expect(CONTENT_FIELDS.get(op)?.ok(content), op).toBe(true);
      expect(contentProblem(op, content)).toBeNull();
    }
    expect(contentProblem("NewProxy", { ...valid.NewProxy, remote_port: 1.5 })).toMatch(/^插件请求无效：remote_port /);
    expect(contentProblem("Ping", { user: { ...user, run_id: "" } })).toBe("插件请求无效：user.run_id 缺少 run_id");
    expect(contentProblem("NewUserConn", { user })).toBe("插件请求无效：proxy_name 缺少此字段");
  });

  it("lets ops it does not know pass, whatever their name", () => {
    for (const op of ["FutureOp", "constructor", "__proto__", "toString"]) expect(contentProblem(op, {})).toBeNull();
  });
});
