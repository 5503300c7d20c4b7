// The console built in the bench's own process, so that process.cpuUsage() there is the console's.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { buildApp } from "../apps/server/src/app";
import { loadConfig } from "../apps/server/src/config";

/** A silent console on a fresh data directory (SQLite there, or DATABASE_URL), seeded as at first start. */
export async function benchConsole(tag: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `burrow-bench-${tag}-`));
  const config = loadConfig({
    DATA_DIR: dir,
    DATABASE_URL: process.env.DATABASE_URL ?? "",
    LOG_LEVEL: "silent",
    ADMIN_PASSWORD: "bench-pass-123",
    NODE_ENV: "test",
  });
  // the first start prints the seeded admin's credentials: not part of a bench's output
  const out = process.stdout.write.bind(process.stdout);
  process.stdout.write = (() => true) as typeof process.stdout.write;
  try {
    const { app, ctx } = await buildApp(config, { logger: pino({ level: "silent" }) });
    return { dir, config, app, ctx };
  } finally {
    process.stdout.write = out;
  }
}
