import pino, { type DestinationStream, type Logger } from "pino";

/** Keys every line has, or that a request line's message already says. */
const HIDDEN = new Set([
  "level",
  "time",
  "pid",
  "hostname",
  "msg",
  "reqId",
  "method",
  "url",
  "statusCode",
  "responseTime",
]);
const LABELS: Record<number, [string, string]> = {
  10: ["TRACE", "90"],
  20: ["DEBUG", "90"],
  30: ["INFO ", "32"],
  40: ["WARN ", "33"],
  50: ["ERROR", "31"],
  60: ["FATAL", "35"],
};

/**
 * One pino JSON line as a person reads it: `15:04:05 INFO  message key=value …`, an error's stack
 * on the lines below. A line that is not JSON passes through unchanged.
 */
export function formatLine(json: string, color: boolean): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(json);
  } catch {
    return json.endsWith("\n") ? json : `${json}\n`;
  }
  const paint = (code: string, s: string) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
  const time = new Date(typeof o.time === "number" ? o.time : Date.now()).toTimeString().slice(0, 8);
  const [label, code] = LABELS[o.level as number] ?? [String(o.level).padEnd(5), "0"];
  let line = `${paint("90", time)} ${paint(code, label)} ${String(o.msg ?? "")}`;
  let stack = "";
  for (const [key, value] of Object.entries(o)) {
    if (HIDDEN.has(key) || value === undefined) continue;
    if (key === "err" && value && typeof value === "object" && "stack" in value) {
      stack = `\n${paint("90", String((value as { stack: unknown }).stack))}`;
      continue;
    }
    line += ` ${paint("90", `${key}=`)}${typeof value === "string" ? value : JSON.stringify(value)}`;
  }
  return `${line}${stack}\n`;
}

/** What a log output needs of a stream: process.stdout, or a test's capture. */
export interface LogTarget {
  write(s: string): unknown;
  /** bytes written but still waiting for the reader (Node's writable streams) */
  readonly writableLength?: number;
  on?(event: "error", listener: (err: Error) => void): unknown;
  isTTY?: boolean;
}

/** Past this many bytes waiting for a reader that stopped reading, lines are dropped rather than kept in memory. */
export const MAX_PENDING_BYTES = 4 * 1024 * 1024;

/**
 * Log lines to a stream such that no log write can block the process, spin, or keep it from
 * exiting (issue 30 §13: pino's own stdout destination retried a write that failed with EPIPE in
 * a loop at exit, forever, once the reader of stdout was gone):
 * - the stream is Node's own (on a pipe or socket it writes what the reader takes and queues the
 *   rest, never blocking the event loop); nothing is written synchronously at exit;
 * - its first error (EPIPE: the reader is gone; any other) ends this output for good, no retry;
 * - past MAX_PENDING_BYTES waiting for a reader that stopped reading, lines are dropped (counted).
 */
export class LogOutput implements DestinationStream {
  /** lines dropped because the reader fell too far behind */
  dropped = 0;
  #broken = false;

  constructor(
    private readonly target: LogTarget,
    private readonly format: (line: string) => string = (line) => line,
  ) {
    target.on?.("error", () => {
      this.#broken = true;
    });
  }

  /** Whether the output failed (its reader is gone): nothing is written any more. */
  get broken(): boolean {
    return this.#broken;
  }

  write(line: string): void {
    if (this.#broken) return;
    if ((this.target.writableLength ?? 0) > MAX_PENDING_BYTES) {
      this.dropped++;
      return;
    }
    try {
      this.target.write(this.format(line));
    } catch {
      this.#broken = true;
    }
  }

  /** Resolves once what was written has left the process, the output failed, or `ms` passed. */
  async drain(ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while (!this.#broken && (this.target.writableLength ?? 0) > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

// One output per stream: one error listener on process.stdout however many apps a process builds.
const outputs = new WeakMap<LogTarget, LogOutput>();

function outputFor(target: LogTarget): LogOutput {
  let out = outputs.get(target);
  if (!out) {
    out = new LogOutput(target, target.isTTY ? (line) => formatLine(line, !process.env.NO_COLOR) : undefined);
    outputs.set(target, out);
  }
  return out;
}

/**
 * The server's logger: human-readable lines on a terminal, JSON lines otherwise (log shippers,
 * systemd's journal, production), through a {@link LogOutput}. Formatting in-process keeps
 * pino-pretty's worker thread and dependency out; a terminal is read by a person, where a few
 * microseconds a line do not matter.
 */
export function createLogger(level: string, out: LogTarget = process.stdout): Logger {
  return pino({ level }, outputFor(out));
}

/** Waits (at most `ms`) for the log lines written to stdout to leave the process: before exiting. */
export function drainStdoutLog(ms: number): Promise<void> {
  return outputs.get(process.stdout)?.drain(ms) ?? Promise.resolve();
}

/**
 * Keeps a reader of stdout or stderr that went away from crashing the process or being retried:
 * their errors (EPIPE) are dropped, and so is what is written to them afterwards. For the
 * writers other than the logger (the start banner, the console SMS driver, fatal messages).
 */
export function toleratePipeErrors(): void {
  for (const stream of [process.stdout, process.stderr])
    if (stream.listenerCount("error") === 0) stream.on("error", () => undefined);
}
