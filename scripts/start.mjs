// `npm start`: builds the web app when it was never built or was built from other sources than the
// tree's (after `git pull`, an upgrade, an edit: the stamp in dist differs), then runs the server
// (SQLite under ./data unless DATABASE_URL is set; migrations and first-start seeding run inside).
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { buildReason } from "./build-stamp.mjs";

const root = path.resolve(import.meta.dirname, "..");
const dist = path.join(root, "apps/web/dist");
// A WEB_DIST elsewhere is a build the operator ships and manages; only ours is checked and rebuilt.
const ownDist = !process.env.WEB_DIST || path.resolve(root, process.env.WEB_DIST) === dist;

const reason =
  process.env.BURROW_REBUILD === "1"
    ? "Rebuilding the web app (BURROW_REBUILD=1)…"
    : ownDist
      ? buildReason(root, dist)
      : undefined;
if (reason) {
  console.log(reason);
  const r = spawnSync("npm", ["run", "build", "-w", "@burrow/web"], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

// The node agent's one-file bundle, which the console serves to the nodes' installer
// (/download/agent/burrow-agent.mjs): built at every start from this tree's sources (esbuild, about a
// second), so a node never installs an agent older than the console it talks to.
const agent = spawnSync(process.execPath, [path.join(root, "apps/agent/build.mjs")], { cwd: root, stdio: "inherit" });
if (agent.status !== 0) {
  console.error("Building the node agent (apps/agent/build.mjs) failed: see above.");
  process.exit(agent.status ?? 1);
}

// --max-semi-space-size: a young generation large enough that request garbage dies young (docs/frp.md).
const server = spawn(process.execPath, ["--max-semi-space-size=64", "--import", "tsx", "apps/server/src/main.ts"], {
  cwd: root,
  stdio: "inherit",
  env: process.env,
});
// The server stops within SHUTDOWN_TIMEOUT by itself (a log write never holds it up); should it
// still be there a few seconds later, it is killed, so that a stop always ends.
const shutdownSeconds = Number(process.env.SHUTDOWN_TIMEOUT) > 0 ? Number(process.env.SHUTDOWN_TIMEOUT) : 10;
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"])
  process.on(signal, () => {
    server.kill(signal);
    if (stopping) return;
    stopping = true;
    setTimeout(() => server.kill("SIGKILL"), (shutdownSeconds + 5) * 1000).unref();
  });
// Nothing of this process's own output may keep it alive once the reader is gone.
for (const stream of [process.stdout, process.stderr]) stream.on("error", () => undefined);
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
