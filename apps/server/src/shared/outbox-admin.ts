import type { OutboxDelivery, OutboxDeliveryQuery, OutboxDeliveryStatus, Paged } from "@burrow/contract";
import { OutboxEventTypeLabel } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { DB } from "../db/schema";
import { notFound, refused } from "./errors";
import { countRows, pageOf } from "./paging";

/** The outbox tables as operators see them (the outbox module's /super/outbox pages). */
function deliveries(db: Kysely<DB>) {
  return db
    .selectFrom("outbox_deliveries as d")
    .innerJoin("outbox_events as e", "e.id", "d.event_id")
    .select([
      "d.id",
      "d.event_id",
      "e.type as event_type",
      "e.payload",
      "e.uid",
      "e.created_at as event_at",
      "d.handler",
      "d.status",
      "d.attempts",
      "d.last_error",
      "d.next_at",
      "d.updated_at",
    ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof deliveries>["executeTakeFirstOrThrow"]>>;

const present = (r: Row): OutboxDelivery => ({
  id: Number(r.id),
  event_id: Number(r.event_id),
  event_type: r.event_type,
  event_label: OutboxEventTypeLabel[r.event_type] ?? r.event_type,
  payload: r.payload,
  uid: r.uid === null ? null : Number(r.uid),
  handler: r.handler,
  status: r.status as OutboxDeliveryStatus,
  attempts: Number(r.attempts),
  last_error: r.last_error,
  next_at: r.next_at,
  event_at: r.event_at,
  updated_at: r.updated_at,
});

/** Deliveries of one status, the latest change first. */
export async function listDeliveries(db: Kysely<DB>, q: OutboxDeliveryQuery): Promise<Paged<OutboxDelivery>> {
  const base = db.selectFrom("outbox_deliveries").where("status", "=", q.status);
  return pageOf(
    q.page,
    q.size,
    async (limit, offset) =>
      (
        await deliveries(db)
          .where("d.status", "=", q.status)
          .orderBy("d.updated_at", "desc")
          .orderBy("d.id", "desc")
          .limit(limit)
          .offset(offset)
          .execute()
      ).map(present),
    () => countRows(base),
  );
}

/** Dead deliveries, as a figure: the Managers' waiting queue (an operator retries or lets them be). */
export const deadDeliveries = (db: Kysely<DB>) =>
  db
    .selectFrom("outbox_deliveries")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("status", "=", "dead");

export async function findDelivery(db: Kysely<DB>, id: number): Promise<OutboxDelivery | undefined> {
  const row = await deliveries(db).where("d.id", "=", id).executeTakeFirst();
  return row && present(row);
}

/**
 * Makes a dead (or pending) delivery due now with a fresh set of attempts; the error of the last
 * failure stays until the next attempt. A done one is refused: its handler already succeeded and
 * must not run twice. Returns the row before and after.
 */
export async function retryDelivery(
  db: Kysely<DB>,
  id: number,
  now = new Date(),
): Promise<{ before: OutboxDelivery; after: OutboxDelivery }> {
  const before = await findDelivery(db, id);
  if (!before) throw notFound("事件投递");
  if (before.status === "done") throw refused("该投递已完成，不能重试");
  const r = await db
    .updateTable("outbox_deliveries")
    .set({ status: "pending", attempts: 0, next_at: now.toISOString(), updated_at: now.toISOString() })
    .where("id", "=", id)
    .where("status", "!=", "done")
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw refused("该投递已完成，不能重试");
  return { before, after: (await findDelivery(db, id))! };
}
