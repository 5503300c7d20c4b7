// Runs one autocannon load (options as JSON on stdin) and prints the result as JSON: lets a bench
// measure the server's own CPU time without the load generator's in the same process.
import { load } from "./lib";

let raw = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) raw += chunk;
const result = await load(JSON.parse(raw) as Parameters<typeof load>[0]);
process.stdout.write(JSON.stringify(result));
