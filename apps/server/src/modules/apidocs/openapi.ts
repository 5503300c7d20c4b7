import { type Access, ApiTokenScopes, type Endpoint, Endpoints, ErrorCode, endpointScope } from "@burrow/contract";
import { type ZodType, z } from "zod";

type AnyEndpoint = Endpoint<unknown, ZodType | undefined, ZodType | undefined, ZodType | undefined>;
type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; required?: string[] };

/** Every endpoint with its domain and key, in the contract's order. */
export function allEndpoints(): { domain: string; name: string; ep: AnyEndpoint }[] {
  return Object.entries(Endpoints).flatMap(([domain, group]) =>
    Object.entries(group as Record<string, AnyEndpoint>).map(([name, ep]) => ({ domain, name, ep })),
  );
}

/** What a caller sends, as JSON Schema (preprocessors and transforms document their input side). */
function inputSchema(schema: ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  delete json.$schema;
  return json;
}

/** What the server answers (an entry's `answer`), as JSON Schema. */
function outputSchema(schema: ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as JsonSchema;
  delete json.$schema;
  return json;
}

/** The success envelope, with `data` described where the entry has its answer schema. */
function successSchema(ep: AnyEndpoint): JsonSchema {
  const envelope = { $ref: "#/components/schemas/Success" };
  if (!ep.answer) return envelope;
  return { allOf: [envelope, { type: "object", properties: { data: outputSchema(ep.answer) } }] };
}

/** An optional object schema documents as its object: the parameters are what matters. */
function objectOf(json: JsonSchema): JsonSchema {
  const anyOf = json.anyOf as JsonSchema[] | undefined;
  return anyOf?.find((s) => s.type === "object") ?? json;
}

const ACCESS_TEXT: Record<Access, string> = {
  public: "任何人（无需登录）",
  user: "已登录用户",
  staff: "客服（角色 2）及管理员",
  manager: "管理员（角色 3）",
};

const ERRORS: [number, number, string][] = [
  [400, ErrorCode.InvalidParams, "参数错误，msg 以字段名开头（field: message）"],
  [401, ErrorCode.TokenMissing, "未登录或令牌无效（30001–30003）"],
  [403, ErrorCode.NoPermission, "无权限"],
  [403, ErrorCode.BusinessRefused, "业务规则拒绝"],
  [404, ErrorCode.NotFound, "不存在"],
  [429, ErrorCode.RateLimited, "请求过于频繁"],
];

/** Whether an API token may call it, and with which scope (docs/api-tokens.md). */
function tokenText(ep: AnyEndpoint): string {
  if (ep.access === "public") return "";
  const scope = endpointScope(ep);
  return (ApiTokenScopes as readonly (string | null)[]).includes(scope)
    ? `；API 令牌需要权限范围 ${scope}`
    : "；API 令牌不可调用（仅限控制台登录）";
}

/**
 * The OpenAPI 3.1 document of the whole API, generated from the contract's endpoint table: paths,
 * access, parameters and request bodies from the same zod schemas the server validates with.
 * Answers are the `{code,msg,data}` envelope; `x-response-type` is not available at run time, so
 * each operation names its contract entry (`x-contract`) where the TypeScript type lives.
 */
export function buildOpenApi(serverUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { domain, name, ep } of allEndpoints()) {
    const path = ep.url.replace(/:(\w+)/g, "{$1}");
    const parameters: Record<string, unknown>[] = [];
    if (ep.params) {
      const json = objectOf(inputSchema(ep.params));
      for (const [p, schema] of Object.entries(json.properties ?? {}))
        parameters.push({ name: p, in: "path", required: true, schema });
    }
    if (ep.query) {
      const json = objectOf(inputSchema(ep.query));
      const required = new Set(json.required ?? []);
      for (const [p, schema] of Object.entries(json.properties ?? {}))
        parameters.push({ name: p, in: "query", required: required.has(p) && schema.default === undefined, schema });
    }
    const responses: Record<string, unknown> = {
      "200": ep.raw
        ? {
            description: {
              file: "文件",
              redirect: "重定向",
              text: "纯文本或 HTML",
              multipart: "信封",
              stream: "事件流（text/event-stream）",
            }[ep.raw],
          }
        : {
            description: "成功",
            content: { "application/json": { schema: successSchema(ep) } },
          },
    };
    if (!ep.raw) {
      for (const [status, code, text] of ERRORS) {
        if (ep.access === "public" && (status === 401 || code === ErrorCode.NoPermission)) continue;
        responses[String(status)] ??= {
          description: text,
          content: {
            "application/json": {
              schema: { $ref: "#/components/schemas/Failure" },
              example: { code, msg: text, data: null },
            },
          },
        };
      }
    }
    paths[path] ??= {};
    paths[path][ep.method.toLowerCase()] = {
      operationId: `${domain}.${name}`,
      tags: [domain],
      summary: ep.summary,
      description: `权限：${ACCESS_TEXT[ep.access]}${tokenText(ep)}`,
      "x-access": ep.access,
      // the scope a credential needs (contract `scope`, else the access level's default)
      "x-scope": endpointScope(ep),
      "x-contract": `packages/contract/src/endpoints/${domain}.ts#${name}`,
      security: ep.access === "public" ? [] : [{ bearer: [] }],
      ...(parameters.length > 0 && { parameters }),
      ...(ep.body && {
        requestBody: { required: true, content: { "application/json": { schema: inputSchema(ep.body) } } },
      }),
      ...(ep.raw === "multipart" && {
        requestBody: {
          required: true,
          content: {
            "multipart/form-data": {
              schema: { type: "object", properties: { file: { type: "string", format: "binary" } } },
            },
          },
        },
      }),
      responses,
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Burrow API",
      version: "1",
      description:
        'Burrow 控制台的 HTTP 接口。每个应答都是 {code, msg, data}：成功时 code 为 "SUCCESS"，失败时为数字错误码。',
    },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "控制台登录的 JWT，或 API 令牌 brw_…（只能调用 x-scope 为其权限范围的接口）",
        },
      },
      schemas: {
        Success: {
          type: "object",
          required: ["code", "msg", "data"],
          properties: { code: { const: "SUCCESS" }, msg: { type: "string" }, data: {} },
        },
        Failure: {
          type: "object",
          required: ["code", "msg", "data"],
          properties: { code: { type: "integer" }, msg: { type: "string" }, data: { type: "null" } },
        },
      },
    },
    paths,
  };
}
