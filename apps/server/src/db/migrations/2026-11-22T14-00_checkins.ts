import type { Kysely } from "kysely";

/** Daily check-ins: one row per customer per Asia/Shanghai day (the primary key makes it once a day). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("checkins")
    .addColumn("uid", "integer", (c) => c.notNull())
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("bonus_bytes", "bigint", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("checkins_pk", ["uid", "day"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("checkins").execute();
}
