import { spawn } from "node:child_process";
import fs from "node:fs";
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
export async function loadFromChild(opts: LoadOptions): Promise<LoadResult> {
  const cpu0 = process.cpuUsage();
  const r = await inChild<Awaited<ReturnType<typeof load>>>(opts);
  const cpu = process.cpuUsage(cpu0);
  const requests = Math.max(1, r.rps * (opts.seconds ?? 5));
  return { ...r, cpu_us_per_req: Number(((cpu.user + cpu.system) / requests).toFixed(1)) };
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
