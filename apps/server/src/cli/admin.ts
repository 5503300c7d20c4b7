// `npm run admin -- <command>`: the operator's commands on the server, against the database the
// server uses (DATABASE_URL, else DATA_DIR/burrow.sqlite, read from the environment like `npm start`).
import fs from "node:fs";
import path from "node:path";
import { Redis } from "ioredis";
import { createDb } from "../db/database";
import { migrateToLatest, SchemaTooNewError } from "../db/migrate";
import { createEventBus } from "../shared/events";
import { FRP_MIRROR_USAGE, frpMirrorCommand } from "./frp-mirror";
import { resetPassword, UnknownAccountError } from "./reset-password";

const USAGE = `Usage: npm run admin -- <command>

  reset-password <phone>   sets a new random password for the account (printed once) and signs
                           out all of its sessions
  migrate                  brings the database schema up to date (npm start does it too)
${FRP_MIRROR_USAGE}`;

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (command !== "reset-password" && command !== "migrate" && command !== "frp-mirror") {
    process.stderr.write(USAGE);
    return command === undefined || command === "help" || command === "--help" ? 0 : 2;
  }
  if (command === "reset-password" && args.length !== 1) {
    process.stderr.write(USAGE);
    return 2;
  }
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const sqliteFile = path.resolve(process.env.DATA_DIR || "./data", "burrow.sqlite");
  if (!databaseUrl && !fs.existsSync(sqliteFile)) {
    process.stderr.write(`No database at ${sqliteFile}: start Burrow once first, or set DATA_DIR or DATABASE_URL.\n`);
    return 1;
  }
  const db = createDb({ databaseUrl, sqliteFile });
  // With Redis the running servers hear of the revoked sessions (their caches drop them at once).
  const redisUrl = process.env.REDIS_URL || undefined;
  const redis = redisUrl ? new Redis(redisUrl, { maxRetriesPerRequest: 2 }) : undefined;
  redis?.on("error", () => undefined);
  const events = createEventBus(redis);
  try {
    // A database this code does not know is refused here as at start; a pending migration runs
    // (with its backup) so the command works on the schema it was written for.
    const migrated = await migrateToLatest(db);
    if (command === "migrate") {
      process.stdout.write(
        migrated.applied.length
          ? `Applied ${migrated.applied.join(", ")}${migrated.backup ? ` (backup: ${migrated.backup})` : ""}\n`
          : "The database is up to date.\n",
      );
      return 0;
    }
    if (command === "frp-mirror") return await frpMirrorCommand(db, args);
    const phone = args[0] as string;
    const { password } = await resetPassword({ db, events }, phone);
    process.stdout.write(
      [
        `New password for ${phone}: ${password}`,
        "It is shown once; every session of this account has been signed out.",
        "",
      ].join("\n"),
    );
    return 0;
  } catch (err) {
    if (err instanceof UnknownAccountError || err instanceof SchemaTooNewError) {
      process.stderr.write(`${err.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    await events.close();
    redis?.disconnect();
    await db.destroy();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
