import type { Kysely } from "kysely";
import type { DB } from "../db/schema";

export async function getSetting(db: Kysely<DB>, key: string): Promise<string | undefined> {
  const row = await db.selectFrom("settings").select("value").where("key", "=", key).executeTakeFirst();
  return row?.value;
}

export async function setSetting(db: Kysely<DB>, key: string, value: string): Promise<void> {
  await db
    .insertInto("settings")
    .values({ key, value })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value }))
    .execute();
}

/** Stores `value` unless the key is set already, and returns the stored value (the first writer wins, also in a race). */
export async function setSettingIfAbsent(db: Kysely<DB>, key: string, value: string): Promise<string> {
  await db
    .insertInto("settings")
    .values({ key, value })
    .onConflict((oc) => oc.column("key").doNothing())
    .execute();
  return (await getSetting(db, key)) ?? value;
}
