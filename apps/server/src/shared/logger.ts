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

/** A destination that formats each JSON line (pino writes one line per call) before writing it. */
export function prettyStream(out: { write(s: string): unknown }, color: boolean): DestinationStream {
  return { write: (line: string) => void out.write(formatLine(line, color)) };
}

/**
 * The server's logger: human-readable lines on a terminal, JSON lines otherwise (log shippers,
 * systemd's journal, production). Formatting in-process keeps pino-pretty's worker thread and
 * dependency out; a terminal is read by a person, where a few microseconds a line do not matter.
 */
export function createLogger(level: string, out: NodeJS.WriteStream = process.stdout): Logger {
  if (!out.isTTY) return out === process.stdout ? pino({ level }) : pino({ level }, out);
  return pino({ level }, prettyStream(out, !process.env.NO_COLOR));
}
