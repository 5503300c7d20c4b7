import type { Kysely } from "kysely";
import { sql } from "kysely";

/** The frpc assistant: conversations, their messages and the per-day question counts. */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPg(db);
  const id = (t: any) =>
    pg
      ? t.addColumn("id", "serial", (c: any) => c.primaryKey())
      : t.addColumn("id", "integer", (c: any) => c.primaryKey().autoIncrement());
  await id(db.schema.createTable("assistant_conversations"))
    .addColumn("uid", "integer", (c: any) => c.notNull())
    .addColumn("title", "text", (c: any) => c.notNull())
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .addColumn("updated_at", "text", (c: any) => c.notNull())
    .execute();
  await db.schema
    .createIndex("assistant_conversations_uid")
    .on("assistant_conversations")
    .columns(["uid", "updated_at"])
    .execute();
  await id(db.schema.createTable("assistant_messages"))
    .addColumn("conversation_id", "integer", (c: any) => c.notNull())
    .addColumn("uid", "integer", (c: any) => c.notNull())
    .addColumn("role", "text", (c: any) => c.notNull())
    .addColumn("content", "text", (c: any) => c.notNull())
    .addColumn("explanations", "text", (c: any) => c.notNull().defaultTo("[]"))
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .execute();
  await db.schema
    .createIndex("assistant_messages_conversation")
    .on("assistant_messages")
    .columns(["conversation_id", "id"])
    .execute();
  await db.schema
    .createTable("assistant_usage")
    .addColumn("uid", "integer", (c) => c.notNull())
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("assistant_usage_pk", ["uid", "day"])
    .execute();
}

/** The same probe as the store migration: only PostgreSQL answers version(). */
async function isPg(db: Kysely<any>): Promise<boolean> {
  try {
    await sql`select version()`.execute(db);
    return true;
  } catch {
    return false;
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("assistant_usage").execute();
  await db.schema.dropTable("assistant_messages").execute();
  await db.schema.dropTable("assistant_conversations").execute();
}
