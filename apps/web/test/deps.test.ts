import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const require = createRequire(import.meta.url);
// npm's own version-range library (installed with the toolchain); only read here.
const semver = require("semver") as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};

describe("dependency tree", () => {
  it("holds no package that refuses the oldest Node the project supports (npm's EBADENGINE)", () => {
    const pkg = require(`${root}/package.json`) as { engines: { node: string } };
    const lock = require(`${root}/package-lock.json`) as {
      packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
    };
    const oldest = semver.minVersion(pkg.engines.node)?.version as string;
    expect(oldest).toMatch(/^\d+\.\d+\.\d+$/);
    const refusing = Object.entries(lock.packages)
      .filter(([, p]) => p.engines && !Array.isArray(p.engines) && typeof p.engines.node === "string")
      .filter(([, p]) => !semver.satisfies(oldest, (p.engines as { node: string }).node))
      .map(([name, p]) => `${name}@${p.version} wants node ${(p.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
  });
});
