import type { Kysely } from "kysely";

/**
 * The node agent (issue 32, docs/deploy.md): nodes.agent_mode (0 direct: frps calls the console;
 * 1 agent: frps calls the agent beside it, which streams from the console and posts events back),
 * the agent's journal cursors (agent_cursors: the highest event seq applied per node and journal,
 * advanced in the same transaction as the event → exactly once), and the agent's last contact and
 * grace state on node_runtime (what the node page shows).
 * Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("nodes")
    .addColumn("agent_mode", "integer", (c: any) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("agent_cursors")
    .addColumn("node_id", "integer", (c: any) => c.notNull())
    .addColumn("stream", "text", (c: any) => c.notNull())
    .addColumn("last_seq", "bigint", (c: any) => c.notNull().defaultTo(0))
    .addColumn("updated_at", "text", (c: any) => c.notNull())
    .addPrimaryKeyConstraint("agent_cursors_pk", ["node_id", "stream"])
    .execute();

  // One column per statement: SQLite's ALTER TABLE adds one at a time.
  await db.schema.alterTable("node_runtime").addColumn("agent_seen_at", "text").execute();
  // null (not in grace), "entered" or "expired": the agent's own report ("grace" events)
  await db.schema.alterTable("node_runtime").addColumn("agent_grace", "text").execute();
  await db.schema.alterTable("node_runtime").addColumn("agent_grace_at", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("node_runtime").dropColumn("agent_grace_at").execute();
  await db.schema.alterTable("node_runtime").dropColumn("agent_grace").execute();
  await db.schema.alterTable("node_runtime").dropColumn("agent_seen_at").execute();
  await db.schema.dropTable("agent_cursors").execute();
  await db.schema.alterTable("nodes").dropColumn("agent_mode").execute();
}
