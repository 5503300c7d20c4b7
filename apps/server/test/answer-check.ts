import { type Endpoint, Endpoints } from "@burrow/contract";

/**
 * Every successful answer an API test receives is parsed with its endpoint's `answer` schema
 * (packages/contract/src/answers.ts), where the endpoint has one: strict objects, so a field the
 * server adds, drops or retypes without the schema fails the test that met it, and the OpenAPI
 * document (which describes `data` from the same schema) cannot drift from the server.
 */
interface Route {
  method: string;
  pattern: RegExp;
  /** literal segments: the most specific route wins ("/user/tun/config" over "/user/tun/:id") */
  literals: number;
  ep: Endpoint;
}

const routes: Route[] = Object.values(Endpoints)
  .flatMap((domain) => Object.values(domain) as Endpoint[])
  .map((ep) => {
    const segments = ep.url.split("/");
    const pattern = new RegExp(
      `^${segments.map((s) => (s.startsWith(":") ? "[^/]+" : s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("/")}$`,
    );
    return { method: ep.method, pattern, literals: segments.filter((s) => !s.startsWith(":")).length, ep };
  })
  .sort((a, b) => b.literals - a.literals);

/** The endpoint a test's call reached (`url` as `t.api` takes it: without /api, maybe with a query). */
export function endpointOf(method: string, url: string): Endpoint | undefined {
  const path = url.split("?")[0];
  return routes.find((r) => r.method === method.toUpperCase() && r.pattern.test(path))?.ep;
}

/** Throws, naming the call and the fields, when a successful answer does not match its schema. */
export function checkAnswer(method: string, url: string, body: unknown): void {
  const b = body as { code?: unknown; data?: unknown } | null;
  if (b?.code !== "SUCCESS") return;
  const ep = endpointOf(method, url);
  if (!ep?.answer) return;
  const r = ep.answer.safeParse(b.data);
  if (!r.success)
    throw new Error(
      `${method} ${url}: the answer does not match ${ep.method} ${ep.url}'s answer schema (contract answers.ts):\n${r.error.issues
        .map((i) => `  ${i.path.join(".") || "(data)"}: ${i.message}`)
        .join("\n")}`,
    );
}
