// `npm run bench`: every benchmark in this folder, one after another (loopback only, bounded).
// --expose-gc lets a benchmark start each measured run from a collected heap; the young
// generation is sized as the server runs in production (scripts/start.mjs, Dockerfile, systemd).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const here = import.meta.dirname;
const order = ["bundle-size.ts", "api.ts", "plugin.ts", "agent.ts", "poller.ts", "scale.ts"];
const only = process.argv.slice(2);
let failed = 0;
for (const file of order) {
  if (!fs.existsSync(path.join(here, file))) continue;
  if (only.length && !only.some((o) => file.startsWith(o))) continue;
  console.log(`\n=== ${file}`);
  const r = spawnSync(
    process.execPath,
    ["--expose-gc", "--max-semi-space-size=64", "--import", "tsx", path.join(here, file)],
    {
      stdio: "inherit",
      cwd: here,
    },
  );
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
