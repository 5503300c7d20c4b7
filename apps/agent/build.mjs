// One file for the node: the agent and everything it imports (the shared decision package, zod),
// run by the distribution's Node.js 20 (`node burrow-agent.mjs`), nothing downloaded at install.
import { build } from "esbuild";

await build({
  entryPoints: [new URL("./src/main.ts", import.meta.url).pathname],
  outfile: new URL("./dist/burrow-agent.mjs", import.meta.url).pathname,
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  minify: false,
  legalComments: "none",
  banner: { js: "#!/usr/bin/env node" },
  logLevel: "warning",
});
