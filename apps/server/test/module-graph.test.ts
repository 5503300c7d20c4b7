import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The server's modules form no import cycle (type-only imports aside): a module that needs another
 * one's service at run time must not be needed by it in turn (the context carries the payment
 * gateway for orders, credentials live in auth, promo-code pricing in orders).
 */
const MODULES = path.resolve(import.meta.dirname, "../src/modules");

function graph(): Map<string, Set<string>> {
  const g = new Map<string, Set<string>>();
  for (const mod of fs.readdirSync(MODULES)) {
    const deps = new Set<string>();
    for (const file of fs.readdirSync(path.join(MODULES, mod))) {
      if (!file.endsWith(".ts") || file.endsWith(".test.ts")) continue;
      const text = fs.readFileSync(path.join(MODULES, mod, file), "utf8");
      for (const m of text.matchAll(/^import (?!type )[^;]*?from "\.\.\/([\w-]+)\//gms))
        if (m[1] !== mod) deps.add(m[1]);
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

describe("module graph", () => {
  it("has no import cycle between modules", () => {
    const g = graph();
    expect(g.size).toBeGreaterThan(15);
    expect(cycles(g)).toEqual([]);
  });

  it("finds a cycle when there is one", () => {
    const g = new Map([
      ["a", new Set(["b"])],
      ["b", new Set(["c"])],
      ["c", new Set(["a"])],
    ]);
    expect(cycles(g)).toEqual(["a → b → c → a"]);
  });
});
