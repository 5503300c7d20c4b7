import { type Kysely, sql } from "kysely";
import type { DB } from "../../db/schema";
import type { Change } from "./timeline";

export type Subject = "tunnel" | "node";

/** One change to record (from its domain event). */
export interface ChangeInput {
  subject: Subject;
  subject_id: number;
  node_id: number;
  up: boolean;
  cause: string | null;
  at: string;
  event_id: number;
}

/** Records a change once per event (the handler runs at least once): a repeat is a no-op. */
export async function insertChange(db: Kysely<DB>, c: ChangeInput): Promise<void> {
  await db
    .insertInto("uptime_changes")
    .values({ ...c, up: c.up ? 1 : 0 })
    .onConflict((oc) => oc.column("event_id").doNothing())
    .execute();
}

/**
 * The changes of `ids` since `from` (ISO) and, per subject, the last one before it (the state the
 * window opens in), grouped by subject id.
 */
export async function changesSince(
  db: Kysely<DB>,
  subject: Subject,
  ids: readonly number[],
  from: string,
): Promise<Map<number, Change[]>> {
  const out = new Map<number, Change[]>(ids.map((id) => [id, []]));
  if (!ids.length) return out;
  const cols = ["id", "subject_id", "at", "up", "cause", "node_id"] as const;
  const recent = await db
    .selectFrom("uptime_changes")
    .select(cols)
    .where("subject", "=", subject)
    .where("subject_id", "in", ids)
    .where("at", ">=", from)
    .execute();
  const before = await db
    .selectFrom("uptime_changes as c")
    .select(cols.map((c) => `c.${c}` as const))
    .where("c.subject", "=", subject)
    .where("c.subject_id", "in", ids)
    .where("c.at", "<", from)
    .where(sql<boolean>`not ${laterBefore("c", from)}`)
    .execute();
  for (const r of [...before, ...recent]) out.get(r.subject_id)?.push(r);
  return out;
}

/** "The subject of row `outer` has a later change before `cutoff`": that row is not its last one before it. */
const laterBefore = (outer: string, cutoff: string) => {
  const o = sql.raw(outer);
  return sql<boolean>`exists (select 1 from uptime_changes l where l.subject = ${o}.subject and l.subject_id = ${o}.subject_id and l.at < ${cutoff} and (l.at > ${o}.at or (l.at = ${o}.at and l.id > ${o}.id)))`;
};

/**
 * Deletes changes older than `cutoff` except each subject's last one before it (the state the
 * kept window opens in); returns how many went.
 */
export async function pruneChanges(db: Kysely<DB>, cutoff: string): Promise<number> {
  const r = await db
    .deleteFrom("uptime_changes")
    .where("at", "<", cutoff)
    .where(laterBefore("uptime_changes", cutoff))
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
