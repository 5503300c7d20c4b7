import type { Kysely } from "kysely";

/**
 * `sessions.scope`: NULL for a console session (every scope), else the one scope the session
 * grants. Today only "appeal": what a banned customer's sign-in gets, able to open and follow the
 * account's ban appeal and nothing else (docs/security.md "Credentials and scopes"). Existing rows
 * are console sessions, as they were.
 * Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("sessions").addColumn("scope", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("sessions").dropColumn("scope").execute();
}
