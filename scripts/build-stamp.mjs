// What the web build was made from: one hash over the web app's sources, the contract it imports
// and the lockfile (which pins every dependency that ends up in the bundle). The build writes it to
// dist/build-stamp.json (apps/web/vite.config.ts); `npm start` rebuilds when it differs from the
// tree (scripts/start.mjs), so an upgrade never serves the old web app against the new API.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export const STAMP_FILE = "build-stamp.json";

/** Files and folders, relative to the repository root, whose content goes into the bundle. */
export const STAMP_INPUTS = [
  "apps/web/src",
  "apps/web/public",
  "apps/web/index.html",
  "apps/web/vite.config.ts",
  "apps/web/package.json",
  "apps/web/tsconfig.json",
  "packages/contract/src",
  "packages/contract/package.json",
  "package-lock.json",
  "scripts/build-stamp.mjs",
];

const SKIP = new Set(["node_modules", "dist", ".DS_Store"]);

function listFiles(root, rel, out) {
  const abs = path.join(root, rel);
  let st;
  try {
    st = fs.statSync(abs);
  } catch {
    return; // an optional input (public/) may be absent
  }
  if (st.isDirectory()) {
    for (const name of fs.readdirSync(abs)) {
      if (!SKIP.has(name)) listFiles(root, path.posix.join(rel, name), out);
    }
  } else if (st.isFile()) out.push(rel);
}

/** The hex SHA-256 of every input's path and content, in a fixed order. */
export function computeStamp(root) {
  const files = [];
  for (const input of STAMP_INPUTS) listFiles(root, input, files);
  files.sort();
  const hash = createHash("sha256");
  for (const rel of files) {
    hash.update(`${rel}\0`);
    hash.update(fs.readFileSync(path.join(root, rel)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

/** The stamp a build left in `distDir`, or undefined when there is none (never built, or built before stamps). */
export function readStamp(distDir) {
  try {
    const json = JSON.parse(fs.readFileSync(path.join(distDir, STAMP_FILE), "utf8"));
    return typeof json.stamp === "string" ? json.stamp : undefined;
  } catch {
    return undefined;
  }
}

export function writeStamp(distDir, stamp) {
  fs.mkdirSync(distDir, { recursive: true });
  const body = { stamp, builtAt: new Date().toISOString(), mode: "production" };
  fs.writeFileSync(path.join(distDir, STAMP_FILE), `${JSON.stringify(body, null, 2)}\n`);
}

/**
 * Whether `npm start` must build the web app, and the one line that says why; `reason` is
 * undefined when the build in `distDir` matches the tree under `root`.
 */
export function buildReason(root, distDir) {
  if (!fs.existsSync(path.join(distDir, "index.html"))) return "Building the web app (first start)…";
  const built = readStamp(distDir);
  const current = computeStamp(root);
  if (built === current) return undefined;
  return built
    ? `The web app was built from other sources (${built.slice(0, 12)}, code is ${current.slice(0, 12)}): rebuilding it…`
    : "The web app has no build stamp (built by an older Burrow): rebuilding it…";
}
