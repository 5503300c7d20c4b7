import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type SQLite from "better-sqlite3";

// Runs in a worker thread with its own connection to the same file. Plain CommonJS source (not a
// module file) so that it runs the same under tsx, vitest and a bundle.
const SOURCE = `
const { workerData, parentPort } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma("busy_timeout = 1000");
const timer = setInterval(() => {
  try { db.pragma("wal_checkpoint(PASSIVE)"); } catch {}
}, workerData.everyMs);
parentPort.once("message", () => { clearInterval(timer); db.close(); parentPort.close(); });
`;

/**
 * Moves SQLite's WAL checkpoints off the event loop. By default the connection that commits past
 * 1,000 WAL pages copies them into the database file and fsyncs it, synchronously: a pause of
 * several milliseconds for whatever request committed (the frp plugin's connection log commits
 * many times a second). A worker thread checkpoints every `everyMs` instead; the main connection
 * keeps a far higher automatic threshold only as a safety net should the worker stop.
 */
export function checkpointInBackground(sqlite: SQLite.Database, file: string, everyMs = 1000): void {
  sqlite.pragma("wal_autocheckpoint = 20000");
  const worker = new Worker(SOURCE, {
    eval: true,
    workerData: { file, driver: createRequire(import.meta.url).resolve("better-sqlite3"), everyMs },
  });
  worker.unref();
  worker.on("error", () => sqlite.open && sqlite.pragma("wal_autocheckpoint = 1000"));
  // Stop with the connection (Kysely's destroy closes it).
  const close = sqlite.close.bind(sqlite);
  sqlite.close = () => {
    worker.postMessage("stop");
    return close();
  };
}
