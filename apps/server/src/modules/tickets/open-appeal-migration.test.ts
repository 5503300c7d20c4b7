import fs from "node:fs";
import { Migrator } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { openTestDb } from "../../../test/harness";
import { isUniqueViolation } from "../../db/errors";
import { migrateToLatest } from "../../db/migrate";
import { migrations } from "../../db/migrations/index";

const MIGRATION = "2026-11-27T12-00_open_appeal_unique";
let close = async () => {};
afterAll(() => close());

describe(MIGRATION, () => {
  it("ends the appeals a race doubled (the oldest open one stays), then one open appeal per tunnel is unique", async () => {
    const { db, drop, dataDir } = await openTestDb();
    close = async () => {
      await db.destroy().catch(() => undefined);
      await drop().catch(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    };
    const names = Object.keys(migrations).sort();
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const { error } = await migrator.migrateTo(names[names.indexOf(MIGRATION) - 1]);
    if (error) throw error;

    const at = "2026-11-20T00:00:00.000Z";
    const ticket = (id: number, category: string, status: number, tun_id: number | null) => ({
      id,
      uid: 5,
      title: `t${id}`,
      category,
      status,
      tun_id,
      user_unread: 0,
      last_reply: "",
      last_reply_staff: 0,
      last_reply_at: at,
      created_at: at,
      closed_at: status === 1 ? at : null,
    });
    await db
      .insertInto("tickets")
      .values([
        ticket(1, "appeal", 1, 7), // an earlier appeal, ended
        ticket(2, "appeal", 2, 7), // the race: three open appeals for tunnel 7
        ticket(3, "appeal", 3, 7),
        ticket(4, "appeal", 2, 7),
        ticket(5, "appeal", 2, 8), // one open appeal for tunnel 8
        ticket(6, "tunnel", 2, null),
        ticket(7, "other", 2, null),
      ])
      .execute();
    await migrateToLatest(db);

    const rows = await db.selectFrom("tickets").select(["id", "status", "closed_at"]).orderBy("id").execute();
    expect(rows.map((r) => [r.id, r.status])).toEqual([
      [1, 1],
      [2, 2],
      [3, 1],
      [4, 1],
      [5, 2],
      [6, 2],
      [7, 2],
    ]);
    expect(rows.filter((r) => r.id === 3 || r.id === 4).every((r) => r.closed_at && r.closed_at > at)).toBe(true);

    const second = await db
      .insertInto("tickets")
      .values(ticket(8, "appeal", 2, 8))
      .execute()
      .catch((e: unknown) => e);
    expect(isUniqueViolation(second)).toBe(true);
    // Ended appeals and other tickets are not limited.
    await db
      .insertInto("tickets")
      .values([ticket(9, "appeal", 1, 8), ticket(10, "tunnel", 2, null), ticket(11, "appeal", 2, 9)])
      .execute();
  });
});
