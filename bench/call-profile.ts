// Where one call's server time goes: the real app on the scale database (scale-seed.ts), the call
// answered in process (`app.inject`, no HTTP socket of its own) by 20 loops at once for 4 s under
// V8's profiler, then its self time per answer by package or file and by function, with the
// PostgreSQL statements it sends. A socket write that wakes another process shows as `writev`
// (native): on PostgreSQL each statement is one. Usage, from bench/:
//   [DATABASE_URL=postgres://…] npm run bench:call-profile -- /api/user/dashChart [/api/super/…]
// Paths under /api/super are called as the operator, the others as the first heavy customer.
import { Session } from "node:inspector/promises";
import Pg from "pg";
import pino from "pino";
import { buildApp } from "../apps/server/src/app";
import { issueSession } from "../apps/server/src/modules/auth/sessions";
import { scaleConfig } from "./scale-seed";

const SECONDS = Number(process.env.PROFILE_SECONDS ?? 4);
const CONCURRENCY = 20;

let statements: string[] = [];
const query = Pg.Client.prototype.query;
Pg.Client.prototype.query = function (this: Pg.Client, ...args: unknown[]) {
  const q = args[0] as string | { text: string };
  statements.push(typeof q === "string" ? q : q.text);
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

const { app, ctx } = await buildApp(scaleConfig(1), { logger: pino({ level: "silent" }) });
const session = new Session();
session.connect();
await session.post("Profiler.enable");

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
/** A node_modules package, a source file under apps/server/src, a node: module, or (native). */
const place = (url: string) => {
  if (!url) return "(native)";
  const nm = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (nm) return nm[1];
  return url.replace(/^.*\/apps\/server\/src\//, "src/").replace(/^file:\/\//, "");
};

for (const url of process.argv.slice(2)) {
  const uid = url.startsWith("/api/super") ? 1 : 2;
  const { token } = await issueSession(ctx, uid, { ip: "127.0.0.1", userAgent: "bench" });
  const hit = () => app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}` } });
  const first = await hit();
  if (first.statusCode !== 200) throw new Error(`${url}: ${first.statusCode} ${first.body}`);
  statements = [];
  await hit();
  const sent = statements;
  const load = async (ms: number) => {
    const end = performance.now() + ms;
    let n = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (performance.now() < end) {
          await hit();
          n++;
        }
      }),
    );
    return n;
  };
  await load(1000);
  await session.post("Profiler.start");
  const cpu0 = process.cpuUsage();
  const n = await load(SECONDS * 1000);
  const cpu = process.cpuUsage(cpu0);
  const { profile } = await session.post("Profiler.stop");
  const nodes = new Map((profile.nodes as ProfileNode[]).map((x) => [x.id, x]));
  const bySample = new Map<number, number>();
  const samples = profile.samples ?? [];
  for (const [i, id] of samples.entries()) bySample.set(id, (bySample.get(id) ?? 0) + (profile.timeDeltas?.[i] ?? 0));
  const byPlace = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const [id, us] of bySample) {
    const { functionName, url: file, lineNumber } = (nodes.get(id) as ProfileNode).callFrame;
    const where = place(file);
    const fn = `${functionName || "(anonymous)"} ${where}${file ? `:${lineNumber + 1}` : ""}`;
    byPlace.set(where, (byPlace.get(where) ?? 0) + us);
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
    total += us;
  }
  const top = (m: Map<string, number>, k: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(
        ([name, us]) =>
          `${(us / n).toFixed(1).padStart(8)} µs ${((100 * us) / total).toFixed(1).padStart(5)}%  ${name}`,
      )
      .join("\n");
  console.log(
    `\n${url}: ${n} answers in ${SECONDS} s, ${((cpu.user + cpu.system) / n).toFixed(0)} µs of CPU an answer (profile time per answer below)`,
  );
  console.log(`statements an answer: ${sent.length}`);
  for (const s of sent) console.log(`  ${s.replace(/\s+/g, " ").slice(0, 160)}`);
  console.log(`-- by package or file\n${top(byPlace, 15)}\n-- by function\n${top(byFunction, 20)}`);
}
await app.close();
