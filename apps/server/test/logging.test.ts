import fs from "node:fs";
import path from "node:path";
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app";
import { loadConfig } from "../src/config";
import { loggedUrl } from "../src/http/request-log";
import { createLogger, formatLine } from "../src/shared/logger";
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
