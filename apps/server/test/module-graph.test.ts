import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The server's modules form no import cycle, type-only imports included (a type that two modules
 * need lives with its owner, and the owner needs nothing back): a module that needs another one
 * must not be needed by it in turn (the context carries the payment gateway for orders,
 * credentials live in auth, promo-code pricing in orders). Below the modules, `http/`, `shared/`
 * and `db/` import no business module; only db/schema.ts assembles the modules' table types.
 */
const SRC = path.resolve(import.meta.dirname, "../src");
const MODULES = path.join(SRC, "modules");

/** The relative paths a TypeScript file imports or re-exports, `import type` included. */
function importsOf(text: string): string[] {
  const specs: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"/gms)) specs.push(m[1]);
  for (const m of text.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g)) specs.push(m[1]);
  return specs;
}

function sources(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
    .map((f) => path.join(dir, f));
}

/** The business module a file imports through `spec`, if any. */
function moduleOf(file: string, spec: string): string | undefined {
  if (!spec.startsWith(".")) return undefined;
  const rel = path.relative(MODULES, path.resolve(path.dirname(file), spec));
  if (rel.startsWith("..")) return undefined;
  return rel.split(path.sep)[0];
}

function graph(): Map<string, Set<string>> {
  const g = new Map<string, Set<string>>();
  for (const mod of fs.readdirSync(MODULES)) {
    const deps = new Set<string>();
    for (const file of sources(path.join(MODULES, mod)))
      for (const spec of importsOf(fs.readFileSync(file, "utf8"))) {
        const dep = moduleOf(file, spec);
        if (dep && dep !== mod) deps.add(dep);
      }
    g.set(mod, deps);
  }
  return g;
}

/** Every cycle, each as the path that closes it. */
function cycles(g: Map<string, Set<string>>): string[] {
  const found = new Set<string>();
  const visit = (start: string, node: string, trail: string[]) => {
    for (const next of g.get(node) ?? []) {
      if (next === start) found.add([...trail, start].join(" → "));
      else if (!trail.includes(next) && next > start) visit(start, next, [...trail, next]);
    }
  };
  for (const start of g.keys()) visit(start, start, [start]);
  return [...found];
}

/** Imports of a business module from the layers below the modules, as "file → module". */
function layerViolations(): string[] {
  const found: string[] = [];
  for (const layer of ["http", "shared", "db"])
    for (const file of sources(path.join(SRC, layer))) {
      const rel = path.relative(SRC, file);
      for (const spec of importsOf(fs.readFileSync(file, "utf8"))) {
        const mod = moduleOf(file, spec);
        if (!mod) continue;
        // The schema assembles each module's `<X>Tables` block into `DB`: table types only.
        if (rel === path.join("db", "schema.ts") && /\/[\w-]+\.table$/.test(spec)) continue;
        found.push(`${rel} → ${mod}`);
      }
    }
  return found;
}

/** Files below src/ that may speak Fastify: routes, the manifest type and the frp plugin's fast path. */
const FASTIFY_ALLOWED = (rel: string) =>
  rel.endsWith(".routes.ts") || rel === "shared/module.ts" || rel === "modules/frp/plugin-http.ts";

/** Files (src-relative, "/"-separated) under modules/ or shared/ that import fastify or @fastify/*, outside FASTIFY_ALLOWED. */
function fastifyViolations(files: { rel: string; text: string }[]): string[] {
  return files
    .filter(({ rel }) => /^(modules|shared)\//.test(rel) && !FASTIFY_ALLOWED(rel))
    .filter(({ text }) => importsOf(text).some((spec) => spec === "fastify" || spec.startsWith("@fastify/")))
    .map(({ rel }) => rel);
}

describe("module graph", () => {
  it("has no import cycle between modules, type imports included", () => {
    const g = graph();
    expect(g.size).toBeGreaterThan(15);
    expect(cycles(g)).toEqual([]);
  });

  it("http/, shared/ and db/ import no business module", () => {
    expect(layerViolations()).toEqual([]);
  });

  it("finds a cycle when there is one", () => {
    const g = new Map([
      ["a", new Set(["b"])],
      ["b", new Set(["c"])],
      ["c", new Set(["a"])],
    ]);
    expect(cycles(g)).toEqual(["a → b → c → a"]);
  });

  it("reads type imports, multi-line imports and re-exports", () => {
    const text = [
      'import type { PlanRow } from "../plans/plans.table";',
      "import {",
      "  a,",
      "  type B,",
      '} from "../orders/orders.service";',
      'export { x } from "../users/users.repository";',
      'const m = await import("../frp/poller");',
    ].join("\n");
    expect(importsOf(text)).toEqual([
      "../plans/plans.table",
      "../orders/orders.service",
      "../users/users.repository",
      "../frp/poller",
    ]);
  });

  it("services know no HTTP: only routes, shared/module.ts and frp/plugin-http.ts import fastify", () => {
    const files = ["modules", "shared"].flatMap((dir) =>
      sources(path.join(SRC, dir)).map((file) => ({
        rel: path.relative(SRC, file).split(path.sep).join("/"),
        text: fs.readFileSync(file, "utf8"),
      })),
    );
    expect(files.length).toBeGreaterThan(100);
    expect(fastifyViolations(files)).toEqual([]);
  });

  it("finds a service that imports fastify", () => {
    const reply = 'import type { FastifyReply } from "fastify";';
    expect(
      fastifyViolations([
        { rel: "modules/tickets/attachments.ts", text: `import fs from "node:fs";\n${reply}` },
        { rel: "modules/users/avatars.ts", text: 'import multipart from "@fastify/multipart";' },
        { rel: "shared/disk.ts", text: 'import {\n  type FastifyRequest,\n} from "fastify";' },
        { rel: "modules/tickets/tickets.routes.ts", text: reply },
        { rel: "shared/module.ts", text: reply },
        { rel: "modules/frp/plugin-http.ts", text: reply },
        { rel: "modules/frp/poller.ts", text: 'import { fastifyish } from "./fastify-like";' },
      ]),
    ).toEqual(["modules/tickets/attachments.ts", "modules/users/avatars.ts", "shared/disk.ts"]);
  });
});
