import { ApidocsApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { escapeHtml } from "../../shared/html";
import { allEndpoints, buildOpenApi } from "./openapi";

const METHOD_ORDER = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** The reference page: every endpoint by domain with its access, summary and inputs; no script. */
function referencePage(doc: ReturnType<typeof buildOpenApi>): string {
  const paths = doc.paths as Record<string, Record<string, Record<string, unknown>>>;
  const byDomain = new Map<string, string[]>();
  const endpoints = allEndpoints().sort(
    (a, b) => a.ep.url.localeCompare(b.ep.url) || METHOD_ORDER.indexOf(a.ep.method) - METHOD_ORDER.indexOf(b.ep.method),
  );
  for (const { domain, ep } of endpoints) {
    const op = paths[ep.url.replace(/:(\w+)/g, "{$1}")][ep.method.toLowerCase()];
    const params = (op.parameters as { name: string; in: string; required: boolean }[] | undefined) ?? [];
    const body = (op.requestBody as { content: Record<string, { schema: { properties?: object } }> } | undefined)
      ?.content;
    const bodyFields = Object.keys(Object.values(body ?? {})[0]?.schema.properties ?? {});
    const inputs = [
      ...params.map((p) => `${p.in === "path" ? "路径" : "查询"} ${p.name}${p.required ? "" : "?"}`),
      ...bodyFields.map((f) => `请求体 ${f}`),
    ];
    const row = `<tr><td><code>${ep.method}</code></td><td><code>/api${escapeHtml(ep.url)}</code></td><td>${escapeHtml(
      String(op["x-access"]),
    )}</td><td>${escapeHtml(ep.summary)}</td><td>${inputs.map(escapeHtml).join("<br>")}</td></tr>`;
    byDomain.set(domain, [...(byDomain.get(domain) ?? []), row]);
  }
  const sections = [...byDomain]
    .map(
      ([domain, rows]) =>
        `<section id="${escapeHtml(domain)}"><h2>${escapeHtml(domain)}</h2><table><thead><tr><th>方法</th><th>路径</th><th>权限</th><th>说明</th><th>参数</th></tr></thead><tbody>${rows.join("")}</tbody></table></section>`,
    )
    .join("\n");
  const toc = [...byDomain.keys()].map((d) => `<a href="#${escapeHtml(d)}">${escapeHtml(d)}</a>`).join(" · ");
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Burrow API 参考</title>
<style>
body{font-family:-apple-system,"PingFang SC","Microsoft YaHei","Noto Sans CJK SC",sans-serif;margin:24px auto;max-width:1200px;padding:0 16px;color:#1f1f1f}
table{border-collapse:collapse;width:100%;margin-bottom:24px;font-size:14px}th,td{border:1px solid #e5e5e5;padding:6px 8px;text-align:left;vertical-align:top}
th{background:#fafafa}code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px}h2{margin-top:32px}
</style></head><body>
<h1>Burrow API 参考</h1>
<p>每个应答都是 <code>{code, msg, data}</code>：成功时 <code>code</code> 为 <code>"SUCCESS"</code>；参数错误为 400 / 10000，<code>msg</code> 以字段名开头。需要登录的接口带 <code>Authorization: Bearer &lt;token&gt;</code>。机器可读的完整定义：<a href="/api/openapi.json">/api/openapi.json</a>（OpenAPI 3.1）。</p>
<p>权限：public 任何人 · user 已登录用户 · staff 客服及管理员 · manager 管理员。</p>
<nav>${toc}</nav>
${sections}
</body></html>`;
}

/** GET /api/openapi.json and GET /api/docs, both generated from the contract's endpoint table. */
export function apidocsRoutes(app: FastifyInstance, ctx: AppContext): void {
  // Built once: the table is fixed at start. The server URL is the configured one, never a header.
  const doc = buildOpenApi(`${ctx.config.PUBLIC_URL?.replace(/\/+$/, "") ?? ""}/api`);
  const page = referencePage(doc);
  defineRoute(app, ctx, ApidocsApi.getOpenapiJson, ({ reply }) =>
    reply.type("application/json; charset=utf-8").header("cache-control", "no-cache").send(doc),
  );
  defineRoute(app, ctx, ApidocsApi.getDocs, ({ reply }) =>
    reply.pageHeaders().type("text/html; charset=utf-8").header("cache-control", "no-cache").send(page),
  );
}
