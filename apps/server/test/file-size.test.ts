import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * No module file over 450 lines (issue 31 §5): a file that grows past it is split along its seams
 * (presenters, the repository's shared queries, one file per flow), never given an exception here.
 * Tests beside the code are not counted.
 */
const MODULES = path.resolve(import.meta.dirname, "../src/modules");
const MAX_LINES = 450;

/** Lines as `wc -l` counts them: a final line without its newline counts too. */
function lineCount(text: string): number {
  if (text === "") return 0;
  const newlines = text.split("\n").length - 1;
  return text.endsWith("\n") ? newlines : newlines + 1;
}

function moduleSources(): string[] {
  return fs
    .readdirSync(MODULES, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
    .map((f) => path.join(MODULES, f));
}

describe("module file size", () => {
  it("counts lines like wc -l", () => {
    expect(lineCount("")).toBe(0);
    expect(lineCount("a")).toBe(1);
    expect(lineCount("a\n")).toBe(1);
    expect(lineCount("a\nb")).toBe(2);
    expect(lineCount("a\n\nb\n")).toBe(3);
  });

  it("finds the module sources (tests excluded)", () => {
    const files = moduleSources().map((f) => path.relative(MODULES, f));
    expect(files).toContain(path.join("verify", "verify.service.ts"));
    expect(files.some((f) => f.endsWith(".test.ts"))).toBe(false);
  });

  it(`has no non-test module file over ${MAX_LINES} lines`, () => {
    const over = moduleSources()
      .map((f) => ({ file: path.relative(MODULES, f), lines: lineCount(fs.readFileSync(f, "utf8")) }))
      .filter((f) => f.lines > MAX_LINES)
      .sort((a, b) => b.lines - a.lines)
      .map((f) => `${f.file}: ${f.lines} lines`);
    expect(over, `split these files (at most ${MAX_LINES} lines each)`).toEqual([]);
  });
});
