import fs from "node:fs";
import path from "node:path";
import { buildApp } from "./app";
import { loadConfig, publicUrlWarning } from "./config";
import { FILE_MODE, OWNER_ONLY_UMASK, PID_FILE, tightenDataDir } from "./db/data-dir";
import { SchemaTooNewError } from "./db/migrate";
import { drainStdoutLog, toleratePipeErrors } from "./shared/logger";

/** Reads the environment, builds the app and listens; stops cleanly on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  // Whatever the server creates (the database, its -wal and -shm, uploads, backups before a
  // migration, the pid file) is the owner's only, whatever umask it was started with.
  process.umask(OWNER_ONLY_UMASK);
  // A reader of stdout or stderr that went away (a supervisor, a terminal) must neither crash the
  // server nor hold it up: the logger drops its lines from then on (shared/logger.ts).
  toleratePipeErrors();
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  }
  // And what an earlier version or a looser umask left there (0644 files, 0755 directories).
  const tightened = tightenDataDir(config.DATA_DIR);
  const { app, signIn } = await buildApp(config);
  if (tightened > 0)
    app.log.warn({ files: tightened }, `data directory: ${config.DATA_DIR} made readable by its owner only`);
  const noPublicUrl = publicUrlWarning(config);
  if (noPublicUrl) app.log.warn(noPublicUrl);
  let closing = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      // Draining: no new connection is accepted, requests in flight are answered, jobs and the
      // poller stop (their leases handed back), the frp writer flushes, then the database closes.
      app.log.warn({ signal }, "shutting down: draining requests in flight");
      const deadline = Date.now() + config.SHUTDOWN_TIMEOUT * 1000;
      const force = setTimeout(() => {
        app.log.error(`requests still in flight after ${config.SHUTDOWN_TIMEOUT} s; exiting anyway`);
        process.exit(1);
      }, config.SHUTDOWN_TIMEOUT * 1000);
      force.unref();
      // The last lines get a moment to reach a slow reader, within the deadline; none is waited for
      // synchronously at exit.
      const exit = (code: number) =>
        drainStdoutLog(Math.min(1000, deadline - Date.now())).finally(() => process.exit(code));
      app.close().then(
        () => {
          app.log.warn("stopped");
          return exit(0);
        },
        (err) => {
          app.log.error({ err }, "shutdown failed");
          return exit(1);
        },
      );
    });
  }
  // Fastify logs one "Server listening at" line per network interface; the banner below says it
  // once, with the operator's sign-in on a first start, before any request line.
  const level = app.log.level;
  if (!["warn", "error", "fatal", "silent"].includes(level)) app.log.level = "warn";
  try {
    await app.listen({ host: config.HOST, port: config.PORT });
  } finally {
    app.log.level = level;
  }
  // `npm run restore` refuses while this file names a live process (cli/backup.ts).
  const pidFile = path.resolve(config.DATA_DIR, PID_FILE);
  fs.writeFileSync(pidFile, `${process.pid}\n`, { mode: FILE_MODE });
  fs.chmodSync(pidFile, FILE_MODE);
  process.on("exit", () => {
    try {
      if (fs.readFileSync(pidFile, "utf8").trim() === String(process.pid)) fs.rmSync(pidFile);
    } catch {
      // already gone
    }
  });
  const banner = ["", `  Burrow is ready: http://localhost:${config.PORT}`, ...(signIn ?? []), ""];
  process.stdout.write(`${banner.join("\n")}\n`);
}

main().catch((err) => {
  // An operator's situation rather than a bug: the message says what to do, a stack would bury it.
  if (err instanceof SchemaTooNewError) {
    process.stderr.write(`Burrow failed to start: ${err.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`Burrow failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
