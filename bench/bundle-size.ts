/**
 * The JavaScript a first visit to /login downloads, against a baseline built in the same run: the
 * smallest honest antd sign-in page (bench/login-baseline: ConfigProvider zh_CN + Form + Input +
 * Button), built by the same Vite with the same React plugin.
 *
 * Both pages are loaded in Debian's Chromium (the app from the real server serving a fresh build);
 * every script response is counted at its gzip -9 size, so the two are compared on equal terms
 * whatever the server compresses. LCP (largest contentful paint) is read from the browser, median of
 * a few loads. The manifest breakdown of the app's /login chunks is printed too, to see what to cut.
 *
 * Usage: `npx tsx bench/bundle-size.ts`. Writes bench/results/bundle.json; exits 1 when the app's
 * /login JavaScript is over TARGET_RATIO × the baseline's.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import react from "@vitejs/plugin-react";
import { chromium } from "playwright-core";
import { build } from "vite";
import { freePort } from "../apps/server/test/free-port";

/** Issue 15: /login may download at most this many times the baseline's JavaScript (gzip). */
const TARGET_RATIO = 1.15;
const LOADS = 3;

const root = path.resolve(import.meta.dirname, "..");
const tmp = mkdtempSync(path.join(os.tmpdir(), "burrow-bundle-"));
const appDist = path.join(tmp, "app");
const baseDist = path.join(tmp, "baseline");

async function buildBoth(): Promise<void> {
  process.env.NODE_ENV = "production";
  await build({
    root: path.join(root, "apps/web"),
    configFile: path.join(root, "apps/web/vite.config.ts"),
    logLevel: "warn",
    build: { outDir: appDist, emptyOutDir: true },
  });
  await build({
    root: path.join(root, "bench/login-baseline"),
    configFile: false,
    mode: "production",
    plugins: [react()],
    logLevel: "warn",
    build: { outDir: baseDist, emptyOutDir: true, manifest: true },
  });
}

/** Serves the baseline's build as static files. */
function serveStatic(dir: string, port: number): Promise<http.Server> {
  const types: Record<string, string> = { ".js": "text/javascript", ".css": "text/css", ".html": "text/html" };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const file = path.join(dir, url.pathname === "/" || !path.extname(url.pathname) ? "index.html" : url.pathname);
    if (!file.startsWith(dir)) return void res.writeHead(403).end();
    try {
      const body = readFileSync(file);
      res.writeHead(200, { "content-type": types[path.extname(file)] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}

/** The real server on a fresh SQLite directory, serving the app's fresh build. */
async function startServer(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
    cwd: root,
    stdio: "ignore",
    env: {
      ...process.env,
      NODE_ENV: "development",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: path.join(tmp, "data"),
      WEB_DIST: appDist,
      ADMIN_PASSWORD: "bench-admin-pass-1",
      LOG_LEVEL: "warn",
    },
  });
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/healthz`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error("the server did not start");
}

interface PageLoad {
  js_gzip: number;
  js_files: { url: string; gzip: number }[];
  lcp_ms: number;
}

/** Loads `url` in a fresh context (empty cache) and counts the scripts it downloaded. */
async function loadPage(browser: import("playwright-core").Browser, url: string, ready: RegExp): Promise<PageLoad> {
  const context = await browser.newContext({ locale: "zh-CN", viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const scripts: Promise<{ url: string; gzip: number }>[] = [];
  page.on("response", (res) => {
    if (res.request().resourceType() !== "script") return;
    scripts.push(
      res.body().then((b) => ({ url: new URL(res.url()).pathname, gzip: gzipSync(b, { level: 9 }).length })),
    );
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __lcp: number };
    w.__lcp = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__lcp = e.startTime;
    }).observe({ type: "largest-contentful-paint", buffered: true });
  });
  await page.goto(url, { waitUntil: "networkidle" });
  await page.getByRole("button", { name: ready }).waitFor();
  const lcp = await page.evaluate(() => (window as unknown as { __lcp: number }).__lcp);
  const files = await Promise.all(scripts);
  await context.close();
  return { js_gzip: files.reduce((n, f) => n + f.gzip, 0), js_files: files, lcp_ms: Math.round(lcp) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

async function measure(browser: import("playwright-core").Browser, url: string) {
  const loads: PageLoad[] = [];
  for (let i = 0; i < LOADS; i++) loads.push(await loadPage(browser, url, /^登\s?录$/));
  return { ...loads[0], lcp_ms: median(loads.map((l) => l.lcp_ms)) };
}

await buildBoth();
const [appPort, basePort] = [await freePort(), await freePort()];
const server = await startServer(appPort);
const statics = await serveStatic(baseDist, basePort);
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking"],
});
try {
  const baseline = await measure(browser, `http://127.0.0.1:${basePort}/`);
  const app = await measure(browser, `http://127.0.0.1:${appPort}/login`);
  const ratio = app.js_gzip / baseline.js_gzip;
  const pass = ratio <= TARGET_RATIO;

  console.log("JavaScript downloaded to show /login (gzip -9), in Chromium\n");
  console.log(`  baseline (antd ConfigProvider zh_CN + Form + Input + Button): ${kb(baseline.js_gzip)}`);
  console.log(`  Burrow /login                                               : ${kb(app.js_gzip)}`);
  console.log(`  ratio ${ratio.toFixed(3)} (target ≤ ${TARGET_RATIO})`);
  console.log(`  LCP median of ${LOADS}: baseline ${baseline.lcp_ms} ms, /login ${app.lcp_ms} ms\n`);
  for (const f of [...app.js_files].sort((a, b) => b.gzip - a.gzip)) {
    console.log(`  ${kb(f.gzip).padStart(10)}  ${f.url}`);
  }
  const out = {
    generated_at: new Date().toISOString(),
    target_ratio: TARGET_RATIO,
    ratio: Number(ratio.toFixed(3)),
    baseline: { js_gzip: baseline.js_gzip, lcp_ms: baseline.lcp_ms, files: baseline.js_files },
    login: { js_gzip: app.js_gzip, lcp_ms: app.lcp_ms, files: app.js_files },
    pass,
  };
  const resultsDir = path.join(root, "bench/results");
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(path.join(resultsDir, "bundle.json"), `${JSON.stringify(out, null, 2)}\n`);
  console.log(`\n${pass ? "PASS" : "FAIL"} — bench/results/bundle.json`);
  process.exitCode = pass ? 0 : 1;
} finally {
  await browser.close();
  statics.close();
  server.kill();
}
