import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { checkpointInBackground } from "./checkpointer";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe("checkpointInBackground", () => {
  it("copies the WAL into the database file from a worker, not on commit", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "burrow-ckpt-"));
    dirs.push(dir);
    const file = path.join(dir, "db.sqlite");
    const db = new SQLite(file);
    db.pragma("journal_mode = WAL");
    checkpointInBackground(db, file, 50);
    db.exec("create table t (id integer primary key, v text)");
    const insert = db.prepare("insert into t (v) values (?)");
    // ~8 MB in one go: more than the default 1,000-page threshold, less than the raised one.
    db.transaction(() => {
      for (let i = 0; i < 2000; i++) insert.run("x".repeat(4000));
    })();
    expect(fs.statSync(file).size).toBeLessThan(1024 * 1024);
    const deadline = Date.now() + 5000;
    while (fs.statSync(file).size < 7_000_000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(fs.statSync(file).size).toBeGreaterThan(7_000_000);
    db.close();
    expect(db.open).toBe(false);
  });
});
