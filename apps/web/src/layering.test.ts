import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The web app's layers (issue 31 §7): `app/` assembles features into the router and the shells;
 * features, and what they share (lib/, components/, hooks/, api/), never import `app/` back, or a
 * change to a layout would ripple into every page.
 */
const SRC = import.meta.dirname;
const LOWER = ["features", "lib", "components", "hooks", "api"];

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return files(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** The `app/` modules a file imports, by alias or relative path. */
function appImports(file: string, text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)) {
    const spec = m[1];
    const resolved = spec.startsWith("@/")
      ? path.join(SRC, spec.slice(2))
      : spec.startsWith(".")
        ? path.resolve(path.dirname(file), spec)
        : null;
    if (resolved && path.relative(SRC, resolved).split(path.sep)[0] === "app") found.push(spec);
  }
  return found;
}

describe("web layering", () => {
  it("no feature or shared module imports app/", () => {
    const offenders = LOWER.flatMap((d) => files(path.join(SRC, d)))
      .map((f) => ({ f: path.relative(SRC, f), imports: appImports(f, fs.readFileSync(f, "utf8")) }))
      .filter((x) => x.imports.length > 0)
      .map((x) => `${x.f}: ${x.imports.join(", ")}`);
    expect(offenders).toEqual([]);
  });

  it("sees an import of app/ by alias, by relative path and dynamically", () => {
    const file = path.join(SRC, "features/x/pages/P.tsx");
    expect(appImports(file, 'import { a } from "@/app/access";')).toEqual(["@/app/access"]);
    expect(appImports(file, 'import { a } from "../../../app/layout/X";')).toEqual(["../../../app/layout/X"]);
    expect(appImports(file, 'const m = import("@/app/router");')).toEqual(["@/app/router"]);
    expect(appImports(file, 'import { a } from "@/lib/access";')).toEqual([]);
  });
});
