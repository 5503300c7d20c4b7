import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registeredRoutes } from "../src/http/route";
import { allEndpoints } from "../src/modules/apidocs/openapi";
import { createTestApp, type TestApp } from "./harness";

/**
 * The contract's endpoint table is the API: every route the server answers under /api is in it
 * with the same access, and everything in it is served. Routes outside the JSON API are listed
 * here by name, with the reason.
 */
const OUTSIDE_THE_TABLE = new Map([
  [
    "POST /api/frp/plugin/:node_id/:secret",
    "frps's server-plugin protocol (docs/frp.md), answered in frp's own format",
  ],
  ["GET /api/uploads/avatars/:file", "static avatar files"],
]);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Every "METHOD /path" Fastify serves, read from its route tree (HEAD is implied by GET). */
function servedRoutes(tree: string): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  for (const line of tree.split("\n")) {
    const m = /^([│ ├└─]*?)[├└]── (\S+)(?: \(([^)]*)\))?/.exec(line);
    if (!m) continue;
    const depth = m[1].length / 4;
    stack.length = depth;
    stack[depth] = m[2];
    for (const method of (m[3] ?? "").split(", ").filter((x) => x && x !== "HEAD"))
      out.push(`${method} ${stack.join("")}`);
  }
  return out;
}

describe("the contract's endpoint table", () => {
  it("names every route the server registers, with the same access, and nothing it does not serve", () => {
    const contract = new Map(allEndpoints().map(({ ep }) => [`${ep.method} ${ep.url}`, ep.access]));
    expect(contract.size).toBe(allEndpoints().length); // no endpoint declared twice
    expect(Object.fromEntries(registeredRoutes)).toEqual(Object.fromEntries(contract));
  });

  it("covers every route under /api except the ones outside the JSON API", () => {
    const served = servedRoutes(t.app.printRoutes({ commonPrefix: false })).filter((r) => r.includes(" /api/"));
    expect(served.length).toBeGreaterThan(100);
    const contract = new Set(allEndpoints().map(({ ep }) => `${ep.method} /api${ep.url}`));
    const unlisted = served.filter((r) => !contract.has(r) && !OUTSIDE_THE_TABLE.has(r));
    expect(unlisted).toEqual([]);
    for (const r of OUTSIDE_THE_TABLE.keys()) expect(served).toContain(r);
  });

  it("serves an OpenAPI 3.1 document and a reference page generated from it", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/openapi.json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { openapi: string; paths: Record<string, Record<string, Record<string, unknown>>> };
    expect(doc.openapi).toBe("3.1.0");
    for (const { ep } of allEndpoints()) {
      const op = doc.paths[ep.url.replace(/:(\w+)/g, "{$1}")]?.[ep.method.toLowerCase()];
      expect([ep.method, ep.url, op?.["x-access"]]).toEqual([ep.method, ep.url, ep.access]);
    }
    // The zod schemas become parameters and bodies: a query field, a path parameter, a body field.
    const list = doc.paths["/super/download"].get.parameters as { name: string; in: string }[];
    expect(list.map((p) => p.name)).toEqual(expect.arrayContaining(["page", "size", "os"]));
    const detail = doc.paths["/user/tun/{tunid}"].get.parameters as { name: string; in: string }[];
    expect(detail).toContainEqual(expect.objectContaining({ name: "tunid", in: "path", required: true }));
    const login = doc.paths["/auth/login"].post.requestBody as {
      content: { "application/json": { schema: { properties: object; required: string[] } } };
    };
    expect(Object.keys(login.content["application/json"].schema.properties)).toEqual(
      expect.arrayContaining(["phone", "password"]),
    );

    const page = await t.app.inject({ method: "GET", url: "/api/docs" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.body).toContain("/api/super/epay/order/refund");
    expect(page.body).not.toContain("<script");
  });
});
