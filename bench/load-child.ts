// Runs one load (options as JSON on stdin) and prints the result as JSON: lets a bench measure the
// server's own CPU time without the load generator's in the same process. `paced` selects the
// steady-rate generator of paced.ts instead of autocannon.
import { load } from "./lib";
import { paced } from "./paced";

let raw = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) raw += chunk;
const opts = JSON.parse(raw);
const result = opts.paced ? await paced(opts.paced) : await load(opts);
process.stdout.write(JSON.stringify(result));
