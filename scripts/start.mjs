// `npm start`: builds the web app when it has not been built yet, then runs the server
// (SQLite under ./data unless DATABASE_URL is set; migrations and first-start seeding run inside).
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const dist = path.join(root, "apps/web/dist/index.html");

if (!existsSync(dist) || process.env.BURROW_REBUILD === "1") {
  console.log("Building the web app (first start)…");
  const r = spawnSync("npm", ["run", "build", "-w", "@burrow/web"], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const server = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
  cwd: root,
  stdio: "inherit",
  env: process.env,
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
