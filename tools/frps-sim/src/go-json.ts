/**
 * A plugin answer decoded as frps decodes it: `json.Unmarshal` into `Response` whose `Content`
 * is a `*T` of the op's content type (pkg/plugin/server/http.go), then marshalled again as frps
 * sends it to the next plugin (omitempty). So keys match fields case-insensitively, unknown keys
 * are dropped, null leaves a field zero, and a wrongly typed value anywhere — `remote_port:
 * "6000"`, `1.0` or `1e3` for an int, a number in `custom_domains` — fails the op.
 */

/** A JSON value with number literals kept (Go's int fields refuse `1.0` and `1e3`). */
type Raw = null | boolean | string | { num: string } | Raw[] | { obj: [string, Raw][] };

export type GoType =
  | "string"
  | "bool"
  | "int"
  | "map"
  | "strings"
  | { struct: string; fields: Record<string, { type: GoType; omitempty: boolean }> };

/** What json.Unmarshal returns: the first type error, as Go words it. */
export class GoJsonError extends Error {}

function parseRaw(text: string): Raw {
  JSON.parse(text); // Go refuses what JSON.parse refuses; this parser then trusts the syntax
  let i = 0;
  const ws = () => {
    while (/[ \t\n\r]/.test(text[i] ?? "")) i++;
  };
  const value = (): Raw => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const obj: [string, Raw][] = [];
      ws();
      if (text[i] === "}") {
        i++;
        return { obj };
      }
      for (;;) {
        ws();
        const k = value() as string;
        ws();
        i++; // :
        obj.push([k, value()]);
        ws();
        if (text[i++] === "}") return { obj };
      }
    }
    if (c === "[") {
      i++;
      const arr: Raw[] = [];
      ws();
      if (text[i] === "]") {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value());
        ws();
        if (text[i++] === "]") return arr;
      }
    }
    if (c === '"') {
      const start = i++;
      while (text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      i++;
      return JSON.parse(text.slice(start, i)) as string;
    }
    for (const [word, v] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const)
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i)) as RegExpExecArray;
    i += m[0].length;
    return { num: m[0] };
  };
  return value();
}

const kind = (v: Raw): string =>
  v === null
    ? "null"
    : typeof v === "boolean"
      ? "bool"
      : typeof v === "string"
        ? "string"
        : Array.isArray(v)
          ? "array"
          : "num" in v
            ? "number"
            : "object";

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Finds the field a key sets: the exact name first, then one equal but for case (Go's rule). */
function fieldFor(fields: Record<string, unknown>, key: string): string | undefined {
  if (key in fields) return key;
  const lower = key.toLowerCase();
  return Object.keys(fields).find((f) => f.toLowerCase() === lower);
}

/** json.Unmarshal of `v` into a Go value of `t`, then json.Marshal of that value. */
function decode(v: Raw, t: GoType, path: string): unknown {
  const wrong = (): never => {
    throw new GoJsonError(`json: cannot unmarshal ${kind(v)} into Go struct field ${path} of type ${goName(t)}`);
  };
  if (v === null) return zero(t); // null leaves the field as it is: zero in a fresh value
  if (t === "string") return typeof v === "string" ? v : wrong();
  if (t === "bool") return typeof v === "boolean" ? v : wrong();
  if (t === "int") {
    if (typeof v !== "object" || Array.isArray(v) || !("num" in v) || !/^-?\d+$/.test(v.num)) return wrong();
    const n = BigInt(v.num);
    if (n < INT64_MIN || n > INT64_MAX) return wrong();
    return Number(n);
  }
  if (t === "strings") {
    if (!Array.isArray(v)) return wrong();
    return v.map((x, n) => decode(x, "string", `${path}[${n}]`));
  }
  if (t === "map") {
    if (typeof v !== "object" || Array.isArray(v) || !("obj" in v)) return wrong();
    const out: Record<string, string> = {};
    for (const [k, x] of v.obj) out[k] = decode(x, "string", `${path}.${k}`) as string;
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
  if (typeof v !== "object" || Array.isArray(v) || !("obj" in v)) return wrong();
  const got: Record<string, unknown> = {};
  for (const [k, x] of v.obj) {
    const f = fieldFor(t.fields, k);
    if (f) got[f] = decode(x, t.fields[f].type, `${t.struct}.${f}`);
  }
  return marshal(got, t);
}

function zero(t: GoType): unknown {
  if (t === "string") return "";
  if (t === "bool") return false;
  if (t === "int") return 0;
  if (t === "map" || t === "strings") return null;
  return marshal({}, t);
}

/** json.Marshal of a struct value: fields in declaration order, omitempty ones dropped when empty. */
function marshal(got: Record<string, unknown>, t: Exclude<GoType, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [f, { type, omitempty }] of Object.entries(t.fields)) {
    const v = f in got ? got[f] : zero(type);
    const empty =
      v === "" ||
      v === false ||
      v === 0 ||
      v === null ||
      (Array.isArray(v) && !v.length) ||
      (type === "map" && !Object.keys(v as object).length);
    // omitempty never drops a struct (client_spec is always sent)
    if (omitempty && empty && typeof type === "string") continue;
    out[f] = v;
  }
  return out;
}

function goName(t: GoType): string {
  if (t === "int") return "int";
  if (t === "map") return "map[string]string";
  if (t === "strings") return "[]string";
  return typeof t === "string" ? t : `plugin.${t.struct}`;
}

const o = (type: GoType) => ({ type, omitempty: true });
const always = (type: GoType) => ({ type, omitempty: false });

const USER_INFO: GoType = {
  struct: "UserInfo",
  fields: { user: always("string"), metas: always("map"), run_id: always("string") },
};

/** The content type of each op (pkg/plugin/server/types.go and pkg/msg/msg.go, v0.70.1). */
export const CONTENT_TYPES: Record<string, GoType> = {
  Login: {
    struct: "LoginContent",
    fields: {
      version: o("string"),
      hostname: o("string"),
      os: o("string"),
      arch: o("string"),
      user: o("string"),
      privilege_key: o("string"),
      timestamp: o("int"),
      run_id: o("string"),
      client_id: o("string"),
      metas: o("map"),
      client_spec: o({
        struct: "ClientSpec",
        fields: { type: o("string"), always_auth_pass: o("bool") },
      }),
      pool_count: o("int"),
      client_address: o("string"),
    },
  },
  NewProxy: {
    struct: "NewProxyContent",
    fields: {
      user: always(USER_INFO),
      proxy_name: o("string"),
      proxy_type: o("string"),
      use_encryption: o("bool"),
      use_compression: o("bool"),
      bandwidth_limit: o("string"),
      bandwidth_limit_mode: o("string"),
      group: o("string"),
      group_key: o("string"),
      metas: o("map"),
      annotations: o("map"),
      remote_port: o("int"),
      custom_domains: o("strings"),
      subdomain: o("string"),
      locations: o("strings"),
      http_user: o("string"),
      http_pwd: o("string"),
      host_header_rewrite: o("string"),
      headers: o("map"),
      response_headers: o("map"),
      route_by_http_user: o("string"),
      sk: o("string"),
      allow_users: o("strings"),
      multiplexer: o("string"),
    },
  },
  CloseProxy: { struct: "CloseProxyContent", fields: { user: always(USER_INFO), proxy_name: o("string") } },
  Ping: {
    struct: "PingContent",
    fields: { user: always(USER_INFO), privilege_key: o("string"), timestamp: o("int") },
  },
  NewWorkConn: {
    struct: "NewWorkConnContent",
    fields: { user: always(USER_INFO), run_id: o("string"), privilege_key: o("string"), timestamp: o("int") },
  },
  NewUserConn: {
    struct: "NewUserConnContent",
    fields: {
      user: always(USER_INFO),
      proxy_name: always("string"),
      proxy_type: always("string"),
      remote_addr: always("string"),
    },
  },
};

/** The fields of a decoded `Response`; `content` is undefined when the answer had none (or null). */
export interface GoResponse {
  reject: boolean;
  reject_reason: string;
  unchange: boolean;
  content: Record<string, unknown> | undefined;
}

/** Decodes a plugin's answer for `op` as frps does; throws SyntaxError or GoJsonError where Go fails. */
export function decodeResponse(op: string, text: string): GoResponse {
  const raw = parseRaw(text);
  if (raw === null) return { reject: false, reject_reason: "", unchange: false, content: undefined };
  if (typeof raw !== "object" || Array.isArray(raw) || !("obj" in raw))
    throw new GoJsonError(`json: cannot unmarshal ${kind(raw)} into Go value of type plugin.Response`);
  const fields = { reject: "bool", reject_reason: "string", unchange: "bool", content: "content" } as const;
  const out: GoResponse = { reject: false, reject_reason: "", unchange: false, content: undefined };
  for (const [k, v] of raw.obj) {
    const f = fieldFor(fields, k) as keyof typeof fields | undefined;
    if (!f) continue;
    if (f === "content") {
      // null empties the interface (frps then panics on a changed answer: *T of nil)
      out.content =
        v === null ? undefined : (decode(v, CONTENT_TYPES[op], "Response.content") as Record<string, unknown>);
    } else if (f === "reject_reason") out.reject_reason = decode(v, "string", `Response.${f}`) as string;
    else out[f] = decode(v, "bool", `Response.${f}`) as boolean;
  }
  return out;
}
