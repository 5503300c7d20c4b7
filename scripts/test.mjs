// `npm test`: makes sure Chromium, PostgreSQL and Redis are there, then runs every suite —
// server API tests on SQLite and on PostgreSQL, web unit tests, then the browser tests against a
// freshly built web app — and ends with one line "N passed, N failed".
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "burrow-results-"));
const only = process.argv.slice(2); // optional subset: sqlite postgres web sim frp agent e2e

/** A free loopback port, so the browser suite never collides with another server on this machine. */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function run(cmd, args, opts = {}) {
  console.log(`\n▶ ${cmd} ${args.join(" ")}`);
  return spawnSync(cmd, args, { cwd: root, stdio: "inherit", ...opts, env: { ...process.env, ...opts.env } }).status;
}

const deps = run("bash", ["scripts/ensure-test-deps.sh"]);
if (deps !== 0) {
  console.error("Test dependencies are missing (see above).\n0 passed, 1 failed");
  process.exit(1);
}
// The PostgreSQL role and database ensure-test-deps.sh made for us, unless the caller brings one.
const stateDir =
  process.env.BURROW_TEST_STATE ??
  path.join(process.env.XDG_STATE_HOME ?? path.join(os.homedir(), ".local/state"), "burrow-test");
if (!process.env.TEST_PG_URL) process.env.TEST_PG_URL = fs.readFileSync(path.join(stateDir, "pg.url"), "utf8").trim();

const totals = { passed: 0, failed: 0, skipped: 0 };
const suites = [];
/** Each skipped test with the reason it gives (vitest: meta.skipReason, see onlyOn in apps/server/test/harness.ts; Playwright: test.skip's description). */
const skips = [];
const NO_REASON = "NO REASON GIVEN: add one (onlyOn(dialect, why) or { meta: { skipReason } }; test.skip(cond, why))";

// oidc-provider, the tests' stand-in identity provider, prints "Unsupported runtime. Use Node.js
// v22.x LTS" on import under Node 20, which Burrow supports (README). The browser suite imports it
// in its workers: this preload drops that one line there (the API suites' harness does the same).
const QUIET_OIDC_RUNTIME = `--import=data:text/javascript,${encodeURIComponent(
  'const w=console.warn;console.warn=(...a)=>{if(typeof a[0]==="string"&&a[0].includes("oidc-provider WARNING: Unsupported runtime."))return;w(...a)};',
)}`;

function vitestSuite(name, workspace, env, args = []) {
  const out = path.join(tmp, `${name}.json`);
  const status = run("npx", ["vitest", "run", ...args], {
    cwd: path.join(root, workspace),
    env: { ...env, VITEST_JSON: out },
  });
  countVitest(name, out, status);
}

/**
 * A command run beside the others (see below for which and why): its output goes to a file,
 * printed when it ends. Resolves to its exit status.
 */
function inBackground(name, cmd, args, opts = {}) {
  const log = path.join(tmp, `${name}.log`);
  console.log(`\n▶ (in the background, log ${log}) ${cmd} ${args.join(" ")}`);
  const fd = fs.openSync(log, "w");
  const child = spawn(cmd, args, {
    cwd: root,
    stdio: ["ignore", fd, fd],
    ...opts,
    env: { ...process.env, ...opts.env },
  });
  return new Promise((resolve) =>
    child.on("close", (status) => {
      fs.closeSync(fd);
      console.log(`\n▶ ${name} (ran in the background):\n${fs.readFileSync(log, "utf8")}`);
      resolve(status);
    }),
  );
}

/**
 * A suite that mostly waits (the real-frp suite sits out frpc's heartbeats), or one beside a suite
 * that mostly waits, runs beside the others.
 */
async function vitestInBackground(name, workspace, args, env = {}) {
  const out = path.join(tmp, `${name}.json`);
  const status = await inBackground(name, "npx", ["vitest", "run", ...args], {
    cwd: path.join(root, workspace),
    env: { ...env, VITEST_JSON: out },
  });
  countVitest(name, out, status);
}

function countVitest(name, out, status) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  if (fs.existsSync(out)) {
    const r = JSON.parse(fs.readFileSync(out, "utf8"));
    passed = r.numPassedTests;
    // A file that fails to load counts as a failed suite with no failed test in it.
    failed = r.numFailedTests || r.numFailedTestSuites;
    skipped = r.numPendingTests + (r.numTodoTests ?? 0);
    for (const file of r.testResults ?? [])
      for (const t of file.assertionResults ?? [])
        if (t.status === "pending" || t.status === "skipped" || t.status === "todo")
          skips.push({
            suite: name,
            test: `${path.relative(root, file.name)} › ${t.fullName}`,
            why: t.meta?.skipReason ?? (t.status === "todo" ? "todo" : NO_REASON),
          });
    if (r.numTotalTests === 0) failed += 1;
  } else failed = 1;
  if (status !== 0 && failed === 0) failed = 1;
  suites.push({ name, passed, failed, skipped });
}

function countPlaywright(file) {
  const r = JSON.parse(fs.readFileSync(file, "utf8"));
  const c = { passed: 0, failed: 0, skipped: 0 };
  const walk = (suite) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? []) {
        const s = t.status ?? t.results?.at(-1)?.status;
        if (s === "expected" || s === "flaky") c.passed++;
        else if (s === "skipped") {
          c.skipped++;
          const why = (t.annotations ?? []).find((a) => a.type === "skip" || a.type === "fixme")?.description;
          skips.push({ suite: "e2e", test: `e2e/${spec.file} › ${spec.title}`, why: why || NO_REASON });
        } else c.failed++;
      }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const s of r.suites ?? []) walk(s);
  return c;
}

const want = (s) => only.length === 0 || only.includes(s);
// Real frps and frpc (tools/frp/build.sh) against Burrow started as a user starts it.
const realFrp = want("frp")
  ? vitestInBackground("real-frp", "apps/server", ["-c", "vitest.real-frp.config.ts"])
  : Promise.resolve();
// The node agent's tests mostly wait on sockets and a child process: beside the others too.
const agent = want("agent") ? vitestInBackground("agent", "apps/agent", []) : Promise.resolve();
// The web app's unit tests and the simulator's are short: one worker each, beside the API suites,
// whose 30 s test timeouts bear the shared cores. Not beside the browser suite: its renderer is
// CPU-bound, and a page starved of CPU misses its 8 s expectations.
const beside = want("sqlite") || want("postgres") ? ["--maxWorkers=1"] : [];
const webUnit = want("web") ? vitestInBackground("web-unit", "apps/web", beside) : Promise.resolve();
const sim = want("sim") ? vitestInBackground("frps-sim", "tools/frps-sim", beside) : Promise.resolve();
// The two API passes side by side: the PostgreSQL one waits on the database server much of its
// time, which the SQLite one fills (docs/performance.md, "Test time": 20 files of each, 227 s one
// after the other, 183 s side by side). The web app's build (about 25 s of CPU) runs beside them
// too rather than between them and the browser suite.
const sqlite = want("sqlite")
  ? vitestInBackground("server-sqlite", "apps/server", [], { TEST_DB: "sqlite" })
  : Promise.resolve();
const webBuild = want("e2e")
  ? inBackground("web-build", "npm", ["run", "build", "-w", "@burrow/web"])
  : Promise.resolve(0);
if (want("postgres")) vitestSuite("server-postgres", "apps/server", { TEST_DB: "postgres" });
// Finished before the browser suite starts (see above).
await Promise.all([sqlite, webUnit, sim]);
if (want("e2e")) {
  const build = await webBuild;
  // Two runs, each with its own server: the journeys (side by side with E2E_WORKERS), then the
  // site-wide ones alone (e2e/playwright.config.ts). Separate runs so that a failure in the first
  // still runs the second.
  const c = { passed: 0, failed: 0, skipped: 0 };
  for (const project of ["parallel", "site-wide"]) {
    const out = path.join(tmp, `e2e-${project}.json`);
    const status =
      build === 0
        ? run("npx", ["playwright", "test", "-c", "e2e/playwright.config.ts", `--project=${project}`, "--no-deps"], {
            env: {
              NODE_OPTIONS: [process.env.NODE_OPTIONS, QUIET_OIDC_RUNTIME].filter(Boolean).join(" "),
              PLAYWRIGHT_JSON_OUTPUT_NAME: out,
              E2E_PORT: process.env.E2E_PORT ?? String(await freePort()),
              E2E_TMP_DIR: process.env.E2E_TMP_DIR ?? path.join(tmp, `e2e-${project}`),
            },
          })
        : 1;
    const r = fs.existsSync(out) ? countPlaywright(out) : { passed: 0, failed: 1, skipped: 0 };
    if (status !== 0 && r.failed === 0) r.failed = 1;
    if (r.passed + r.failed === 0) r.failed = 1;
    for (const k of Object.keys(c)) c[k] += r[k];
  }
  suites.push({ name: "e2e", ...c });
}

await Promise.all([realFrp, agent, webUnit, sim]);

if (skips.length) {
  console.log(`\nSkipped (${skips.length}), and why`);
  for (const k of skips) console.log(`  ↓ [${k.suite}] ${k.test}\n      ${k.why}`);
}

console.log("\nSummary");
// In a fixed order, whichever finished first.
const ORDER = ["server-sqlite", "server-postgres", "real-frp", "agent", "web-unit", "frps-sim", "e2e"];
suites.sort((a, b) => ORDER.indexOf(a.name) - ORDER.indexOf(b.name));
for (const s of suites) {
  totals.passed += s.passed;
  totals.failed += s.failed;
  totals.skipped += s.skipped;
  console.log(
    `  ${s.name.padEnd(16)} ${s.passed} passed, ${s.failed} failed${s.skipped ? `, ${s.skipped} skipped` : ""}`,
  );
}
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`);
process.exit(totals.failed > 0 ? 1 : 0);
