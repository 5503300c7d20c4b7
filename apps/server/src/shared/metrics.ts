import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** The frp plugin ops counted by name; anything else is counted as "other" (bounded label set). */
const PLUGIN_OPS = new Set(["Login", "NewProxy", "CloseProxy", "Ping", "NewWorkConn", "NewUserConn"]);

/**
 * What one process exposes to Prometheus at /metrics (one registry per app, never the global one,
 * so tests and several apps in one process do not mix counters). Hot paths (every request, every
 * plugin call) count in plain numbers, made into series at scrape time (hotPathMetrics).
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

/** Latency buckets of burrow_http_request_duration_seconds (seconds). */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

/** One route pattern and method: answers by status, latency per bucket (not cumulative; the last is +Inf). */
interface RouteSeries {
  method: string;
  route: string;
  statuses: Map<number, number>;
  buckets: number[];
  sum: number;
  count: number;
}

/** A series as prom-client's registry formats it. */
interface Sample {
  metricName?: string;
  labels: Record<string, string | number>;
  value: number;
}

/** A metric of our own in prom-client's registry: its samples are built at scrape time. */
function collected(
  registry: Registry,
  name: string,
  help: string,
  type: "counter" | "histogram",
  values: () => Sample[],
  reset: () => void,
): void {
  const metric = {
    name,
    help,
    type,
    aggregator: "sum",
    get: async () => ({ name, help, type, aggregator: "sum", values: values() }),
    reset,
  };
  registry.registerMetric(metric as unknown as Parameters<Registry["registerMetric"]>[0]);
}

/**
 * Every HTTP request and every plugin decision is counted in plain numbers (a map lookup and an
 * increment), turned into Prometheus series when /metrics is scraped: prom-client's labelled
 * counters and histograms hash their labels on every call, which the frp plugin endpoint (one call
 * per visitor connection) paid three times a request.
 */
function hotPathMetrics(registry: Registry) {
  const routes = new Map<string, Map<string, RouteSeries>>();
  collected(
    registry,
    "burrow_http_requests_total",
    "HTTP requests answered, by route pattern, method and status",
    "counter",
    () =>
      [...routes.values()].flatMap((byMethod) =>
        [...byMethod.values()].flatMap((s) =>
          [...s.statuses].map(([status, value]) => ({
            labels: { method: s.method, route: s.route, status: String(status) },
            value,
          })),
        ),
      ),
    () => routes.clear(),
  );
  const histogram = "burrow_http_request_duration_seconds";
  collected(
    registry,
    histogram,
    "HTTP request latency by route pattern and method",
    "histogram",
    () =>
      [...routes.values()].flatMap((byMethod) =>
        [...byMethod.values()].flatMap((s) => {
          let acc = 0;
          const labels = { method: s.method, route: s.route };
          return [
            ...[...LATENCY_BUCKETS, "+Inf"].map((le, i) => {
              acc += s.buckets[i];
              return { metricName: `${histogram}_bucket`, labels: { le, ...labels }, value: acc };
            }),
            { metricName: `${histogram}_sum`, labels, value: s.sum },
            { metricName: `${histogram}_count`, labels, value: s.count },
          ];
        }),
      ),
    () => routes.clear(),
  );

  const decisions = new Map<string, Map<string, number>>();
  collected(
    registry,
    "burrow_frp_plugin_decisions_total",
    "frp server-plugin answers by op and verdict (allow, modify, reject; invalid = bad credentials or body)",
    "counter",
    () =>
      [...decisions].flatMap(([op, byVerdict]) =>
        [...byVerdict].map(([verdict, value]) => ({ labels: { op, verdict }, value })),
      ),
    () => decisions.clear(),
  );

  return {
    request(method: string, route: string, status: number, seconds: number): void {
      let byMethod = routes.get(route);
      if (!byMethod) {
        byMethod = new Map();
        routes.set(route, byMethod);
      }
      let s = byMethod.get(method);
      if (!s) {
        s = {
          method,
          route,
          statuses: new Map(),
          buckets: Array(LATENCY_BUCKETS.length + 1).fill(0),
          sum: 0,
          count: 0,
        };
        byMethod.set(method, s);
      }
      s.statuses.set(status, (s.statuses.get(status) ?? 0) + 1);
      let i = 0;
      while (i < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[i]) i++;
      s.buckets[i]++;
      s.sum += seconds;
      s.count++;
    },
    plugin(op: unknown, verdict: "allow" | "modify" | "reject" | "invalid"): void {
      const name = typeof op === "string" && PLUGIN_OPS.has(op) ? op : "other";
      let byVerdict = decisions.get(name);
      if (!byVerdict) {
        byVerdict = new Map();
        decisions.set(name, byVerdict);
      }
      byVerdict.set(verdict, (byVerdict.get(verdict) ?? 0) + 1);
    },
  };
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "burrow_" });
  const hot = hotPathMetrics(registry);
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

  return {
    registry,
    request: hot.request,
    plugin: hot.plugin,
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
