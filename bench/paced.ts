// An open-loop load at a steady rate, for latency below saturation. autocannon's overallRate is a
// per-second quota (every connection sends back to back until the second's share is used, then
// waits), so its latencies at "a fixed rate" are those of a saturated server for most of each
// second. Here request i is due at start + i/rate and is queued at the first timer tick after
// that; it goes out on an idle keep-alive connection or waits for one, and its latency counts from
// when it was queued, so a server stall shows up in full (no coordinated omission) while the
// timer's own granularity (about a millisecond) does not.
import net from "node:net";

export interface PacedRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string | string[] | undefined>;
  body?: string | Buffer;
}

export interface PacedResult {
  rate_rps: number;
  rps: number;
  p50: number;
  p99: number;
  p999: number;
  max: number;
  errors: number;
  non2xx: number;
}

const HEADER_END = Buffer.from("\r\n\r\n");

function requestBuffer(host: string, r: PacedRequest): Buffer {
  const body = Buffer.from(r.body ?? "");
  const head = [`${r.method ?? "GET"} ${r.path ?? "/"} HTTP/1.1`, `host: ${host}`, `content-length: ${body.length}`];
  for (const [k, v] of Object.entries(r.headers ?? {})) if (v !== undefined) head.push(`${k}: ${v}`);
  return Buffer.concat([Buffer.from(`${head.join("\r\n")}\r\n\r\n`), body]);
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : 0;

const round = (ms: number) => Number(ms.toFixed(2));

/** Sends `rate` requests a second for `seconds` (after a short warm-up that is not measured). */
export async function paced(opts: {
  url: string;
  requests: PacedRequest[];
  rate: number;
  seconds: number;
  connections: number;
  warmupSeconds?: number;
}): Promise<PacedResult> {
  const url = new URL(opts.url);
  const buffers = opts.requests.map((r) => requestBuffer(url.host, r));
  const warmup = (opts.warmupSeconds ?? 1) * 1000;
  const total = Math.round((opts.rate * (warmup + opts.seconds * 1000)) / 1000);
  const latencies: number[] = [];
  let errors = 0;
  let non2xx = 0;
  let sent = 0;
  let done = 0;
  let t0 = 0;
  const waiting: number[] = []; // queue times of requests not yet on a connection
  const idle: Conn[] = [];

  interface Conn {
    socket: net.Socket;
    due: number;
    buf: Buffer;
  }

  let finish: () => void = () => {};
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });

  const dispatch = (c: Conn) => {
    const due = waiting.shift();
    if (due === undefined) {
      idle.push(c);
      return;
    }
    c.due = due;
    c.socket.write(buffers[sent++ % buffers.length]);
  };

  const complete = (c: Conn, status: number) => {
    const at = performance.now();
    if (status < 200 || status >= 300) non2xx++;
    if (c.due - t0 >= warmup) latencies.push(at - c.due);
    if (++done === total) finish();
    dispatch(c);
  };

  // Responses here always carry content-length (Fastify, no chunking for JSON bodies).
  const onData = (c: Conn, chunk: Buffer) => {
    c.buf = c.buf.length ? Buffer.concat([c.buf, chunk]) : chunk;
    for (;;) {
      const end = c.buf.indexOf(HEADER_END);
      if (end < 0) return;
      const head = c.buf.subarray(0, end).toString("latin1");
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (c.buf.length < end + 4 + length) return;
      c.buf = c.buf.subarray(end + 4 + length);
      complete(c, Number(head.slice(9, 12)));
    }
  };

  const conns = await Promise.all(
    Array.from(
      { length: opts.connections },
      () =>
        new Promise<Conn>((resolve, reject) => {
          const socket = net.connect(Number(url.port), url.hostname, () => resolve(c));
          const c: Conn = { socket, due: 0, buf: Buffer.alloc(0) };
          socket.setNoDelay(true);
          socket.on("data", (chunk) => onData(c, chunk));
          socket.on("error", (err) => {
            errors++;
            reject(err);
          });
        }),
    ),
  );
  idle.push(...conns);

  t0 = performance.now();
  let queued = 0;
  const timer = setInterval(() => {
    const due = Math.min(total, Math.floor(((performance.now() - t0) * opts.rate) / 1000));
    const now = performance.now();
    for (; queued < due; queued++) {
      waiting.push(now);
      const c = idle.pop();
      if (c) dispatch(c);
    }
    if (queued === total) clearInterval(timer);
  }, 1);
  // Give stragglers a few seconds, then report what came back.
  const deadline = setTimeout(finish, (warmup + opts.seconds * 1000) * 1.2 + 5000);
  await finished;
  clearTimeout(deadline);
  clearInterval(timer);
  for (const c of conns) c.socket.destroy();

  errors += total - done;
  latencies.sort((a, b) => a - b);
  return {
    rate_rps: opts.rate,
    rps: Math.round(latencies.length / opts.seconds),
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
    p999: round(percentile(latencies, 99.9)),
    max: round(latencies.at(-1) ?? 0),
    errors,
    non2xx,
  };
}
