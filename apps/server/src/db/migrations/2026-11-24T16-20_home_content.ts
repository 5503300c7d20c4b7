import type { Kysely } from "kysely";
import { sql } from "kysely";

/**
 * Home content (SPEC "Home content config"): the dashboard's carousel items, notices and quote.
 * addon is JSON text ({"published": bool}). Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPg(db);
  const t = db.schema.createTable("home_configs") as any;
  await (pg
    ? t.addColumn("id", "serial", (c: any) => c.primaryKey())
    : t.addColumn("id", "integer", (c: any) => c.primaryKey().autoIncrement())
  )
    .addColumn("data_type", "integer", (c: any) => c.notNull())
    .addColumn("title", "text", (c: any) => c.notNull())
    .addColumn("title_color", "text", (c: any) => c.notNull().defaultTo(""))
    .addColumn("content", "text", (c: any) => c.notNull().defaultTo(""))
    .addColumn("link", "text", (c: any) => c.notNull().defaultTo(""))
    .addColumn("sort", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("addon", "text", (c: any) => c.notNull().defaultTo('{"published":true}'))
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .addColumn("updated_at", "text", (c: any) => c.notNull())
    .execute();
  await db.schema.createIndex("home_configs_kind_sort").on("home_configs").columns(["data_type", "sort"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("home_configs").execute();
}

async function isPg(db: Kysely<any>): Promise<boolean> {
  try {
    await sql`select version()`.execute(db);
    return true;
  } catch {
    return false;
  }
}
