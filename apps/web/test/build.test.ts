import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { buildReason, computeStamp, readStamp, STAMP_FILE, writeStamp } from "../../../scripts/build-stamp.mjs";

const webDir = fileURLToPath(new URL("..", import.meta.url));
const repoRoot = path.resolve(webDir, "../..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "burrow-web-build-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A miniature repository with the stamp's inputs, so files can be changed without touching the real tree. */
function fakeRepo(): string {
  const root = fs.mkdtempSync(path.join(tmp, "repo-"));
  const put = (rel: string, body: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), body);
  };
  put("apps/web/src/main.tsx", "export const a = 1;\n");
  put("apps/web/src/features/auth/LoginPage.tsx", "export const b = 2;\n");
  put("apps/web/index.html", "<div id=root></div>\n");
  put("packages/contract/src/index.ts", "export {};\n");
  put("package-lock.json", "{}\n");
  put("apps/web/dist/index.html", "<html></html>\n");
  return root;
}

describe("build stamp", () => {
  it("is the same for an unchanged tree, so a start does not rebuild", () => {
    const root = fakeRepo();
    const dist = path.join(root, "apps/web/dist");
    writeStamp(dist, computeStamp(root));
    expect(computeStamp(root)).toBe(readStamp(dist));
    expect(buildReason(root, dist)).toBeUndefined();
  });

  it("changes with a web source, the contract or the lockfile, so the next start rebuilds", () => {
    const root = fakeRepo();
    const dist = path.join(root, "apps/web/dist");
    const before = computeStamp(root);
    writeStamp(dist, before);
    for (const rel of [
      "apps/web/src/features/auth/LoginPage.tsx",
      "packages/contract/src/index.ts",
      "package-lock.json",
    ]) {
      const file = path.join(root, rel);
      const original = fs.readFileSync(file, "utf8");
      fs.writeFileSync(file, `${original}// changed\n`);
      expect(computeStamp(root), rel).not.toBe(before);
      expect(buildReason(root, dist), rel).toMatch(/rebuilding/);
      fs.writeFileSync(file, original);
      expect(computeStamp(root), rel).toBe(before);
    }
    // A new file counts too, and so does a build from before stamps existed.
    fs.writeFileSync(path.join(root, "apps/web/src/extra.ts"), "export {};\n");
    expect(computeStamp(root)).not.toBe(before);
    fs.rmSync(path.join(dist, STAMP_FILE));
    expect(buildReason(root, dist)).toMatch(/no build stamp/);
    fs.rmSync(path.join(dist, "index.html"));
    expect(buildReason(root, dist)).toMatch(/first start/);
  });
});

describe("vite build", () => {
  // One real build (slow on a small machine): into a temporary folder, with NODE_ENV=development.
  it("is a production build whatever NODE_ENV says, without warnings, stamped with the tree it was built from", () => {
    const out = path.join(tmp, "dist");
    const r = spawnSync("npx", ["vite", "build", "--outDir", out, "--emptyOutDir"], {
      cwd: webDir,
      env: { ...process.env, NODE_ENV: "development" },
      encoding: "utf8",
    });
    expect(r.status, r.stderr).toBe(0);
    // Nothing a newcomer would take for an error: no Rollup warning, no chunk over the size limit.
    // (npm's own notices about the machine's npm configuration are not the build's, and the list
    // of files written has names such as form-error-….js.)
    const output = `${r.stdout}\n${r.stderr}`
      // Colours (when the runner forces them) would split " kB │" and hide a file line's nature.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes are what is removed
      .replace(/\u001b\[[0-9;]*m/g, "")
      .split("\n")
      .filter((l) => !l.startsWith("npm warn") && !/ kB │/.test(l))
      .join("\n");
    expect(output).not.toMatch(/\(!\)|warn|error|larger than|cannot/i);
    const js = fs
      .readdirSync(path.join(out, "assets"))
      .filter((f) => f.endsWith(".js"))
      .map((f) => fs.readFileSync(path.join(out, "assets", f), "utf8"))
      .join("\n");
    // React's production build replaces its messages by links to react.dev/errors; its
    // development build (and antd's) carries the warnings themselves.
    expect(js).toContain("Minified React error");
    expect(js).not.toContain("Invalid hook call");
    expect(js).not.toContain("Each child in a list should have a unique");
    expect(js).not.toContain("[antd:");
    expect(readStamp(out)).toBe(computeStamp(repoRoot));
    expect(buildReason(repoRoot, out)).toBeUndefined();
  }, 300_000);
});
