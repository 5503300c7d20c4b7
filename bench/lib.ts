import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";

export const RESULTS = path.join(import.meta.dirname, "results");

/** Runs autocannon against a URL for a bounded time on loopback. */
export async function load(opts: {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  seconds?: number;
  connections?: number;
  /** a sequence of requests each connection cycles through (overrides method/body) */
  requests?: autocannon.Request[];
  /** requests per second across all connections (default: as fast as possible) */
  overallRate?: number;
}): Promise<{ rps: number; p50: number; p95: number; p99: number; errors: number; non2xx: number }> {
  // Every response's time, recorded here: autocannon's summary has no 95th percentile.
  const times: number[] = [];
  const r = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: opts.url,
        method: opts.method ?? "GET",
        headers: opts.headers,
        body: opts.body,
        ...(opts.requests && { requests: opts.requests }),
        ...(opts.overallRate && { overallRate: opts.overallRate }),
        duration: opts.seconds ?? 5,
        connections: opts.connections ?? 20,
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    instance.on("response", (_client, _status, _bytes, ms) => times.push(ms));
  });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p95: percentile(times, 95),
    p99: r.latency.p99,
    errors: r.errors,
    non2xx: r.non2xx,
  };
}

/** The p-th percentile (nearest rank) of `values`, in their unit, 2 decimals; 0 when empty. */
export function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Number(sorted[i].toFixed(2));
}

export type LoadOptions = Parameters<typeof load>[0];
export type LoadResult = Awaited<ReturnType<typeof load>> & { cpu_us_per_req: number };

/**
 * wrk (Debian's package), where installed: a load generator in C that spends a few microseconds on
 * a request where autocannon spends about as much as the server it measures. On two vCPUs that
 * matters: whichever of the generator and the server is the slower keeps the other asleep between
 * answers, and the slower side then pays the wake-up of the other (an inter-processor interrupt on
 * a virtual machine) in every write. Against a generator as fast as a bare route, a server a few
 * microseconds slower flips that and looks slower still (docs/frp.md); against wrk both the bare
 * route and the plugin are the slower side, so their ratio is the servers'.
 */
export const WRK = ["/usr/bin/wrk", "/usr/local/bin/wrk"].find((p) => fs.existsSync(p));

// Each thread reads the requests (raw HTTP, each after its length on a line of its own) and cycles
// through them; `done` prints the summary as JSON (latencies in microseconds).
const WRK_SCRIPT = `
local reqs, i = {}, 0
function init(args)
  local f = assert(io.open(args[1], "rb"))
  local data = f:read("*a")
  f:close()
  local pos = 1
  while pos <= #data do
    local nl = data:find("\\n", pos, true)
    local len = tonumber(data:sub(pos, nl - 1))
    reqs[#reqs + 1] = data:sub(nl + 1, nl + len)
    pos = nl + len + 1
  end
end
function request()
  i = i % #reqs + 1
  return reqs[i]
end
function done(s, latency)
  local e = s.errors
  io.write(string.format('\\n{"requests":%d,"duration_us":%d,"p50":%d,"p95":%d,"p99":%d,"errors":%d,"non2xx":%d}\\n',
    s.requests, s.duration, latency:percentile(50), latency:percentile(95), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout, e.status))
end
`;

/** One load from wrk (one thread), with `load`'s options and answer. */
export async function loadWithWrk(opts: LoadOptions): Promise<Awaited<ReturnType<typeof load>>> {
  if (!WRK) throw new Error("wrk is not installed (apt-get install wrk)");
  const url = new URL(opts.url);
  const requests: autocannon.Request[] = opts.requests ?? [
    { method: opts.method ?? "GET", path: url.pathname + url.search, headers: opts.headers, body: opts.body },
  ];
  const raw = requests.map((r) => {
    const body = Buffer.from((r.body as string | undefined) ?? "");
    const head = [`${r.method ?? "GET"} ${r.path ?? url.pathname} HTTP/1.1`, `host: ${url.host}`];
    if (r.body !== undefined) head.push(`content-length: ${body.length}`);
    for (const [k, v] of Object.entries(r.headers ?? {})) head.push(`${k}: ${v}`);
    const req = Buffer.concat([Buffer.from(`${head.join("\r\n")}\r\n\r\n`), body]);
    return Buffer.concat([Buffer.from(`${req.length}\n`), req]);
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "burrow-wrk-"));
  const script = path.join(dir, "load.lua");
  const data = path.join(dir, "requests");
  fs.writeFileSync(script, WRK_SCRIPT);
  fs.writeFileSync(data, Buffer.concat(raw));
  try {
    const args = [
      "-t1",
      `-c${opts.connections ?? 20}`,
      `-d${opts.seconds ?? 5}s`,
      "-s",
      script,
      url.origin,
      "--",
      data,
    ];
    const child = spawn(WRK, args, { stdio: ["ignore", "pipe", "inherit"] });
    let text = "";
    for await (const chunk of child.stdout) text += chunk;
    const line = text.trim().split("\n").at(-1) ?? "";
    const r = JSON.parse(line) as {
      requests: number;
      duration_us: number;
      p50: number;
      p95: number;
      p99: number;
      errors: number;
      non2xx: number;
    };
    const ms = (us: number) => Number((us / 1000).toFixed(2));
    return {
      rps: Math.round(r.requests / (r.duration_us / 1e6)),
      p50: ms(r.p50),
      p95: ms(r.p95),
      p99: ms(r.p99),
      errors: r.errors,
      non2xx: r.non2xx,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs load-child.ts with `opts` and returns what it printed: the load comes from another process. */
export async function inChild<T>(opts: unknown): Promise<T> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "load-child.ts")], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  child.stdin.end(JSON.stringify(opts));
  let text = "";
  for await (const chunk of child.stdout) text += chunk;
  return JSON.parse(text) as T;
}

/**
 * One load run from a child process, so that this process's CPU time is the servers' alone: the
 * CPU microseconds per request are a measure that a busy machine does not distort the way
 * wall-clock throughput is.
 */
export async function loadFromChild(
  opts: LoadOptions,
  loader: "autocannon" | "wrk" = "autocannon",
): Promise<LoadResult> {
  const cpu0 = process.cpuUsage();
  const r = loader === "wrk" ? await loadWithWrk(opts) : await inChild<Awaited<ReturnType<typeof load>>>(opts);
  const cpu = process.cpuUsage(cpu0);
  const requests = Math.max(1, r.rps * (opts.seconds ?? 5));
  return { ...r, cpu_us_per_req: Number(((cpu.user + cpu.system) / requests).toFixed(1)) };
}

/** What every result file says of the machine it ran on: the database, the cores and the load at the end. */
export function machine(databaseUrl: string | undefined) {
  return {
    database: databaseUrl ? "postgres" : "sqlite",
    cpus: os.cpus().length,
    load_average_1m_at_end: Number(os.loadavg()[0].toFixed(2)),
  };
}

/** Writes a result file under bench/results and prints it. */
export function report(name: string, data: unknown): void {
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(path.join(RESULTS, `${name}.json`), `${JSON.stringify(data, null, 2)}\n`);
  console.log(`\n[${name}]`);
  console.log(JSON.stringify(data, null, 2));
}

/** Median wall time of `fn` over `runs` runs, in milliseconds. */
export async function timeIt(fn: () => Promise<unknown>, runs = 15): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}
