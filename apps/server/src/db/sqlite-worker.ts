import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type SQLite from "better-sqlite3";

// Runs in a worker thread with its own connection to the same file. Plain CommonJS source (not a
// module file) so that it runs the same under tsx, vitest and a bundle.
const SOURCE = `
const { workerData, parentPort } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma("busy_timeout = 5000");
db.pragma("synchronous = NORMAL");
const statements = new Map();
function insert(head, rows) {
  for (let i = 0; i < rows.length; i += workerData.chunk) {
    const chunk = rows.slice(i, i + workerData.chunk);
    const key = head + "|" + chunk.length;
    let stmt = statements.get(key);
    if (!stmt) {
      const row = "(" + chunk[0].map(() => "?").join(", ") + ")";
      stmt = db.prepare(head + " values " + chunk.map(() => row).join(", "));
      statements.set(key, stmt);
    }
    stmt.run(chunk.flat());
  }
}
// The reader thread only reads; the writer checkpoints and keeps the planner's statistics.
let timer, optimizer;
if (!workerData.reader) {
  timer = setInterval(() => {
    try { db.pragma("wal_checkpoint(PASSIVE)"); } catch {}
  }, workerData.everyMs);
  // The query planner's statistics: tables never analyzed or much changed since are analyzed (SQLite
  // limits the work) at start and every optimizeEveryMs, as SQLite advises for long-lived connections.
  // Other connections see the new statistics at their next statement (ANALYZE bumps the schema).
  const optimize = () => {
    try { db.pragma("optimize = 0x10002"); } catch {}
  };
  optimize();
  optimizer = setInterval(optimize, workerData.optimizeEveryMs);
}
// Reads of large figures (shared/large-memo.ts), their statements kept by their SQL (the 200 last used).
const reads = new Map();
function read(sql, params) {
  let stmt = reads.get(sql);
  if (stmt) reads.delete(sql);
  else {
    stmt = db.prepare(sql);
    if (reads.size >= 200) reads.delete(reads.keys().next().value);
  }
  reads.set(sql, stmt);
  return stmt.all(params);
}
parentPort.on("message", (m) => {
  if (m === "stop") {
    clearInterval(timer);
    clearInterval(optimizer);
    db.close();
    parentPort.close();
    return;
  }
  try {
    if (m.sql !== undefined) parentPort.postMessage({ id: m.id, rows: read(m.sql, m.params) });
    else {
      insert(m.head, m.rows);
      parentPort.postMessage({ id: m.id });
    }
  } catch (err) {
    parentPort.postMessage({ id: m.id, error: String(err && err.message || err) });
  }
});
`;

/** Rows per INSERT statement (and transaction) in the worker: short write locks for the main connection. */
const CHUNK = 50;

/** One worker thread and its calls in flight. */
class Thread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (rows?: unknown[]) => void; reject: (err: Error) => void }>();
  private nextId = 1;
  failed: Error | null = null;
  /** Resolves once the thread has stopped and closed its connection. */
  readonly exited: Promise<void>;

  constructor(workerData: object, onError: () => void) {
    this.worker = new Worker(SOURCE, { eval: true, workerData });
    this.worker.unref();
    this.exited = new Promise((resolve) => this.worker.once("exit", () => resolve()));
    this.worker.on("message", (m: { id: number; error?: string; rows?: unknown[] }) => {
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (!this.pending.size) this.worker.unref();
      if (m.error) p?.reject(new Error(m.error));
      else p?.resolve(m.rows);
    });
    const fail = (err: Error) => {
      this.failed ??= err;
      onError();
      for (const p of this.pending.values()) p.reject(this.failed);
      this.pending.clear();
    };
    this.worker.on("error", fail);
    // Stopped, or gone without an error: nothing sent to it could ever be answered.
    this.worker.on("exit", () => fail(new Error("the SQLite worker thread has stopped")));
  }

  send(message: object): Promise<unknown[] | undefined> {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // Referenced while a message is pending: the process must not exit before it is done.
      if (!this.pending.size) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...message });
    });
  }

  stop(): void {
    this.failed ??= new Error("the SQLite connection is closed");
    this.worker.postMessage("stop");
  }

  /** Fails as an error in the thread would (tests). */
  emitError(err: Error): void {
    this.worker.emit("error", err);
  }
}

/**
 * Writes SQLite's bulk logs and checkpoints its WAL from a worker thread with its own connection,
 * off the event loop: a write that waits on the disk (a journal commit of the file system, the
 * fsync of a checkpoint) stalls the worker, not every request in flight.
 *
 * - `insert` runs a multi-row insert in short statements with cached prepared statements. What it
 *   writes is visible to the main connection once the promise resolves.
 * - Checkpoints: by default the connection that commits past 1,000 WAL pages copies them into the
 *   database file and fsyncs it, synchronously. The worker checkpoints every `everyMs` instead; the
 *   main connection keeps a far higher automatic threshold only as a safety net should it stop.
 * - `read` runs a query and answers its rows: the refreshes of large figures (shared/large-memo.ts),
 *   a count of 1M orders or a grouping of 300k tunnels that would hold the event loop (and every
 *   request in flight, frps's plugin calls too) while it runs. It reads the committed database, on
 *   a second thread of its own (started at the first read), so that a long read never holds up
 *   the logs' inserts or the checkpoints.
 * - Statistics: `PRAGMA optimize` at start and every `optimizeEveryMs`. Without them SQLite's
 *   planner guesses, and on a grown database some guesses are seconds slow (the operator's tunnel
 *   list took seconds on the scale bench's database, docs/performance.md).
 *
 * With a second writer on the file, the main connection's transactions must begin IMMEDIATE
 * (dialect.ts): a deferred one that read before the worker committed could not write after it.
 */
export class SqliteWorker {
  private readonly writer: Thread;
  private reader: Thread | undefined;
  private readonly data: { file: string; driver: string; everyMs: number; optimizeEveryMs: number; chunk: number };
  /** Queries `read` has run (tests). */
  reads = 0;

  constructor(sqlite: SQLite.Database, file: string, everyMs = 1000, optimizeEveryMs = 3_600_000) {
    sqlite.pragma("wal_autocheckpoint = 20000");
    this.data = {
      file,
      driver: createRequire(import.meta.url).resolve("better-sqlite3"),
      everyMs,
      optimizeEveryMs,
      chunk: CHUNK,
    };
    this.writer = new Thread(this.data, () => {
      // Checkpoints are the main connection's again.
      if (sqlite.open) sqlite.pragma("wal_autocheckpoint = 1000");
    });
    // Stop with the connection (Kysely's destroy closes it).
    const close = sqlite.close.bind(sqlite);
    sqlite.close = () => {
      this.writer.stop();
      this.reader?.stop();
      return close();
    };
  }

  /** Inserts `rows` (values in the order of `head`'s columns), e.g. head "insert into t (a, b)". */
  insert(head: string, rows: unknown[][]): Promise<void> {
    if (this.writer.failed) return Promise.reject(this.writer.failed);
    if (!rows.length) return Promise.resolve();
    return this.writer.send({ head, rows }).then(() => undefined);
  }

  /** Resolves once every thread has stopped and closed its connection (after the main one is closed). */
  stopped(): Promise<void> {
    return Promise.all([this.writer.exited, this.reader?.exited]).then(() => undefined);
  }

  /** Whether reads still go to a thread (after its error or stop, callers use the main connection). */
  get running(): boolean {
    return !this.reader?.failed;
  }

  /** The rows of a query, run on the reader thread's connection (what is committed when it runs). */
  read<R>(sql: string, params: readonly unknown[]): Promise<R[]> {
    this.reads++;
    this.reader ??= new Thread({ ...this.data, reader: true }, () => undefined);
    return this.reader.send({ sql, params }) as Promise<R[]>;
  }

  /** Fails the reader thread as an error in it would (tests). */
  failReader(err: Error): void {
    this.reader?.emitError(err);
  }
}
