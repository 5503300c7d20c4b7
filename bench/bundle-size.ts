/**
 * Bundle-size report for the web app: the gzip size of the JavaScript a first visit to /login
 * downloads, read from Vite's build manifest.
 *
 * - "entry": index.html's entry chunk and everything it imports statically (what the browser
 *   fetches before any route code runs);
 * - "login": the above plus the lazy route chunks /login needs (PublicLayout, LoginPage) and their
 *   static imports — everything needed to paint the sign-in form.
 *
 * Usage: `npx tsx bench/bundle-size.ts [--build]` (builds apps/web first when dist is missing or
 * --build is given). Writes bench/results/bundle.json; exits 1 when "login" is over the target.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** Budget for the initial JavaScript of /login, gzip. */
const TARGET_KB = 300;
/** The lazy route modules rendered at /login. */
const LOGIN_ROUTE_SOURCES = ["src/app/layout/PublicLayout.tsx", "src/features/auth/pages/LoginPage.tsx"];

const root = path.resolve(import.meta.dirname, "..");
const dist = path.join(root, "apps/web/dist");
const manifestPath = path.join(dist, ".vite/manifest.json");

if (process.argv.includes("--build") || !existsSync(manifestPath)) {
  execFileSync("npm", ["run", "build", "-w", "@burrow/web"], { cwd: root, stdio: "inherit" });
}

const manifest: Manifest = JSON.parse(readFileSync(manifestPath, "utf8"));

/** Keys of `start` and of every chunk reachable from it through static imports. */
function staticClosure(start: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`manifest has no chunk "${key}"`);
    seen.add(key);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  for (const key of start) visit(key);
  return seen;
}

interface FileSize {
  file: string;
  bytes: number;
  gzip: number;
}

function measure(file: string): FileSize {
  const buf = readFileSync(path.join(dist, file));
  return { file, bytes: buf.length, gzip: gzipSync(buf, { level: 9 }).length };
}

function report(keys: Set<string>) {
  const js = [...keys].map((k) => measure(manifest[k].file)).sort((a, b) => b.gzip - a.gzip);
  const cssFiles = new Set([...keys].flatMap((k) => manifest[k].css ?? []));
  const css = [...cssFiles].map(measure);
  const sum = (list: FileSize[], field: "bytes" | "gzip") => list.reduce((n, f) => n + f[field], 0);
  return {
    js,
    css,
    js_bytes: sum(js, "bytes"),
    js_gzip: sum(js, "gzip"),
    css_gzip: sum(css, "gzip"),
  };
}

const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
if (!entryKey) throw new Error("manifest has no entry chunk");
for (const src of LOGIN_ROUTE_SOURCES) {
  if (!manifest[src]) throw new Error(`manifest has no chunk for ${src} (was it renamed?)`);
}

const entry = report(staticClosure([entryKey]));
const login = report(staticClosure([entryKey, ...LOGIN_ROUTE_SOURCES]));
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

console.log(`Initial JavaScript of /login (gzip, target < ${TARGET_KB} KB)\n`);
console.log(
  `  entry chunk + static imports : ${kb(entry.js_gzip)} (${kb(entry.js_bytes)} raw, ${entry.js.length} files)`,
);
console.log(
  `  + /login route chunks        : ${kb(login.js_gzip)} (${kb(login.js_bytes)} raw, ${login.js.length} files)`,
);
console.log(`  CSS                          : ${kb(login.css_gzip)}\n`);
for (const f of login.js) console.log(`  ${kb(f.gzip).padStart(10)}  ${f.file}`);

const pass = login.js_gzip < TARGET_KB * 1024;
const out = {
  generated_at: new Date().toISOString(),
  target_kb_gzip: TARGET_KB,
  entry: { gzip: entry.js_gzip, bytes: entry.js_bytes, files: entry.js },
  login: { gzip: login.js_gzip, bytes: login.js_bytes, css_gzip: login.css_gzip, files: login.js },
  pass,
};
const resultsDir = path.join(root, "bench/results");
mkdirSync(resultsDir, { recursive: true });
writeFileSync(path.join(resultsDir, "bundle.json"), `${JSON.stringify(out, null, 2)}\n`);
console.log(
  `\n${pass ? "PASS" : "FAIL"}: ${kb(login.js_gzip)} ${pass ? "<" : ">="} ${TARGET_KB} KB — bench/results/bundle.json`,
);
process.exit(pass ? 0 : 1);
