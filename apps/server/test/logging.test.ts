import { EventEmitter } from "node:events";
import fs from "node:fs";
import path from "node:path";
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app";
import { loadConfig } from "../src/config";
import { loggedUrl } from "../src/http/request-log";
import { createLogger, formatLine, LogOutput, MAX_PENDING_BYTES } from "../src/shared/logger";
import { ADMIN_PASSWORD, ADMIN_PHONE, openTestDb } from "./harness";

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** A stream that keeps what is written, and says it is (or is not) a terminal. */
function capture(isTTY: boolean): NodeJS.WriteStream & { text: () => string } {
  const chunks: string[] = [];
  const w = new Writable({
    write(chunk, _enc, cb) {
      chunks.push(String(chunk));
      cb();
    },
  }) as unknown as NodeJS.WriteStream & { text: () => string };
  Object.assign(w, { isTTY, text: () => chunks.join("") });
  // pino writes synchronously through write(); make it so for the assertion right after.
  w.write = ((s: string) => {
    chunks.push(s);
    return true;
  }) as typeof w.write;
  return w;
}

describe("log format", () => {
  it("is human-readable lines on a terminal", () => {
    const out = capture(true);
    const log = createLogger("info", out);
    log.info({ node: 3, when: "now" }, "node polled");
    log.debug("not at info");
    const err = new Error("disk full");
    log.error({ err }, "backup failed");
    const ansi = new RegExp(`${String.fromCharCode(27)}\\[\\d+m`, "g");
    const lines = out.text().replace(ansi, "").split("\n");
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d INFO {2}node polled node=3 when=now$/);
    expect(out.text()).not.toContain("not at info");
    expect(out.text()).not.toContain('{"level"');
    expect(lines[1]).toContain("ERROR");
    expect(lines[1]).toContain("backup failed");
    expect(lines[2]).toContain("Error: disk full"); // the stack, below
  });

  it("is JSON lines otherwise (production, log shippers)", () => {
    const out = capture(false);
    createLogger("info", out).info({ node: 3 }, "node polled");
    expect(JSON.parse(out.text())).toMatchObject({ level: 30, msg: "node polled", node: 3 });
  });

  it("passes a line that is not JSON through, and colours only when asked", () => {
    expect(formatLine("plain text", false)).toBe("plain text\n");
    const json = JSON.stringify({ level: 40, time: 0, msg: "careful" });
    expect(formatLine(json, false)).not.toContain("\x1b[");
    expect(formatLine(json, true)).toContain("\x1b[33m");
  });
});

describe("log output (issue 30 §13: no log write holds the process up)", () => {
  /** A stream that keeps what it is given and reports `pending` bytes waiting for a reader. */
  const target = (pending = 0) =>
    Object.assign(new EventEmitter(), {
      writableLength: pending,
      written: [] as string[],
      write(s: string) {
        this.written.push(s);
        return true;
      },
    });

  it("stops for good at the first error (the reader is gone): no retry, nothing more written", async () => {
    const t = target();
    const out = new LogOutput(t);
    out.write("one\n");
    t.emit("error", Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
    out.write("two\n");
    expect(t.written).toEqual(["one\n"]);
    expect(out.broken).toBe(true);
    t.writableLength = 100; // a drain before exit does not wait on a stream that failed
    const t0 = Date.now();
    await out.drain(5000);
    expect(Date.now() - t0).toBeLessThan(100);
  });

  it("drops lines past the limit for a reader that stopped reading, and waits for it at most as long as told", async () => {
    const t = target(MAX_PENDING_BYTES + 1);
    const out = new LogOutput(t);
    out.write("dropped\n");
    expect([t.written, out.dropped]).toEqual([[], 1]);
    t.writableLength = 10;
    out.write("kept\n");
    expect(t.written).toEqual(["kept\n"]);
    const t0 = Date.now();
    await out.drain(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(190);
    expect(Date.now() - t0).toBeLessThan(1000);
  });
});

describe("request logging", () => {
  it("writes one line per request at info, the web app's files at debug", async () => {
    const { db, drop, dataDir } = await openTestDb();
    const dist = path.join(dataDir, "web");
    fs.mkdirSync(path.join(dist, "assets"), { recursive: true });
    fs.writeFileSync(path.join(dist, "index.html"), "<!doctype html>");
    fs.writeFileSync(path.join(dist, "assets", "app.js"), "1");
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: "info" }, { write: (s: string) => lines.push(JSON.parse(s)) });
    const config = loadConfig({
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      ADMIN_PHONE,
      ADMIN_PASSWORD,
      WEB_DIST: dist,
    });
    const { app } = await buildApp(config, { db, logger });
    cleanups.push(async () => {
      await app.close();
      await drop().catch(() => fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 10 }));
    });
    await app.ready();
    lines.length = 0;

    const r = await app.inject({ method: "GET", url: "/api/public/site" });
    expect(r.statusCode).toBe(200);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, method: "GET", url: "/api/public/site", statusCode: 200 });
    expect(lines[0].msg).toMatch(/^GET \/api\/public\/site 200 [\d.]+ms$/);

    lines.length = 0;
    await app.inject({ method: "GET", url: "/assets/app.js" });
    await app.inject({ method: "GET", url: "/dashboard" });
    expect(lines).toEqual([]);
    await app.inject({ method: "GET", url: "/assets/gone.js" });
    expect(lines.map((l) => [l.level, l.statusCode])).toEqual([[30, 404]]);
  });

  it("never writes the frps plugin's node secret", () => {
    expect(loggedUrl("/api/frp/plugin/3/s3cr3t-Value_x?op=Login&version=0.1.0")).toBe(
      "/api/frp/plugin/3/***?op=Login&version=0.1.0",
    );
    expect(loggedUrl("/api/frp/plugin/3/s3cr3t")).toBe("/api/frp/plugin/3/***");
    expect(loggedUrl("/api/user/userInfo?x=1")).toBe("/api/user/userInfo?x=1");
  });
});
