import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** The frp plugin ops counted by name; anything else is counted as "other" (bounded label set). */
const PLUGIN_OPS = new Set(["Login", "NewProxy", "CloseProxy", "Ping", "NewWorkConn", "NewUserConn"]);

/**
 * What one process exposes to Prometheus at /metrics (one registry per app, never the global one,
 * so tests and several apps in one process do not mix counters). Hot paths (every request, every
 * plugin call) go through cached label children: no label hashing per call.
 */
export interface Metrics {
  registry: Registry;
  /** one answered HTTP request: route pattern (never the raw URL), method, status */
  request(method: string, route: string, status: number, seconds: number): void;
  /** one frp plugin decision */
  plugin(op: unknown, verdict: "allow" | "modify" | "reject" | "invalid"): void;
  /** one poll of a node: its duration, and whether it failed */
  poll(nodeId: number, seconds: number, failed: boolean): void;
  /** one background job run */
  job(name: string, ok: boolean, seconds: number): void;
  /** one payment notify and what became of it */
  payment(result: string): void;
  /** a gauge read at scrape time (orders by state) */
  gauge(name: string, help: string, label: string, read: () => Promise<Record<string, number>>): void;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "burrow_" });
  const requests = new Counter({
    name: "burrow_http_requests_total",
    help: "HTTP requests answered, by route pattern, method and status",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: "burrow_http_request_duration_seconds",
    help: "HTTP request latency by route pattern and method",
    labelNames: ["method", "route"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  const decisions = new Counter({
    name: "burrow_frp_plugin_decisions_total",
    help: "frp server-plugin answers by op and verdict (allow, modify, reject; invalid = bad credentials or body)",
    labelNames: ["op", "verdict"] as const,
    registers: [registry],
  });
  const pollTime = new Histogram({
    name: "burrow_frp_poll_duration_seconds",
    help: "time of one poll of a node's dashboard (fetch, traffic, status)",
    labelNames: ["node"] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const pollErrors = new Counter({
    name: "burrow_frp_poll_errors_total",
    help: "polls of a node that failed (unreachable, bad answer, error)",
    labelNames: ["node"] as const,
    registers: [registry],
  });
  const jobRuns = new Counter({
    name: "burrow_job_runs_total",
    help: "background job runs by job and result (ok, failed)",
    labelNames: ["job", "result"] as const,
    registers: [registry],
  });
  const jobTime = new Histogram({
    name: "burrow_job_duration_seconds",
    help: "background job run time",
    labelNames: ["job"] as const,
    buckets: [0.01, 0.05, 0.25, 1, 5, 30, 120],
    registers: [registry],
  });
  const payments = new Counter({
    name: "burrow_payment_notifies_total",
    help: "payment gateway notifies by result (paid, duplicate, unknown, mismatch, refused, ignored)",
    labelNames: ["result"] as const,
    registers: [registry],
  });

  // Bounded caches of label children: routes are the registered patterns, statuses a few dozen.
  const reqChildren = new Map<
    string,
    { count: ReturnType<typeof requests.labels>; time: ReturnType<typeof latency.labels> }
  >();
  const decisionChildren = new Map<string, ReturnType<typeof decisions.labels>>();
  return {
    registry,
    request(method, route, status, seconds) {
      const key = `${method} ${route} ${status}`;
      let c = reqChildren.get(key);
      if (!c) {
        c = { count: requests.labels(method, route, String(status)), time: latency.labels(method, route) };
        reqChildren.set(key, c);
      }
      c.count.inc();
      c.time.observe(seconds);
    },
    plugin(op, verdict) {
      const name = typeof op === "string" && PLUGIN_OPS.has(op) ? op : "other";
      const key = `${name} ${verdict}`;
      let c = decisionChildren.get(key);
      if (!c) {
        c = decisions.labels(name, verdict);
        decisionChildren.set(key, c);
      }
      c.inc();
    },
    poll(nodeId, seconds, failed) {
      const node = String(nodeId);
      pollTime.labels(node).observe(seconds);
      if (failed) pollErrors.labels(node).inc();
      else pollErrors.labels(node).inc(0);
    },
    job(name, ok, seconds) {
      jobRuns.labels(name, ok ? "ok" : "failed").inc();
      jobTime.labels(name).observe(seconds);
    },
    payment(result) {
      payments.labels(result).inc();
    },
    gauge(name, help, label, read) {
      new Gauge({
        name,
        help,
        labelNames: [label],
        registers: [registry],
        async collect() {
          const values = await read();
          this.reset();
          for (const [k, v] of Object.entries(values)) this.labels(k).set(v);
        },
      });
    },
  };
}
