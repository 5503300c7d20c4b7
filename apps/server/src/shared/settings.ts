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
