import type { CreateMaintenanceBody, MaintenanceView, UpdateMaintenanceBody } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import { isPostgres } from "../../db/dialect";
import type { DB } from "../../db/schema";
import type { Operator } from "../../shared/actor";
import { invalid, notFound, refused } from "../../shared/errors";
import { recordEvent } from "../../shared/outbox";
import { DAY_MS } from "../../shared/time";
import { type Tx, transact } from "../../shared/tx";
import { audit } from "../audit/audit";
import { selectNodes } from "../nodes/nodes.repository";
import { customersOnNodes } from "../tunnels/tunnels.repository";
import type { UptimeMaintenanceTable } from "./uptime.table";

/*
 * Maintenance windows (docs/uptime.md): a Manager announces one on some nodes; the provider status
 * page shows it, and "node.maintenance" is recorded in the same transaction for the notices module
 * to tell the customers with tunnels there (their ids in the payload, as they are at the time).
 */

type Row = Omit<UptimeMaintenanceTable, "id"> & { id: number };

/** How long an ended window stays on the status page. */
const SHOWN_AFTER_END_MS = 7 * DAY_MS;

async function nodeNames(db: Kysely<DB>, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await selectNodes(db, { tunnelCount: false }).where("nodes.node_id", "in", ids).execute();
  return new Map(rows.map((r) => [r.node_id, r.name]));
}

async function views(ctx: AppContext, rows: Row[]): Promise<MaintenanceView[]> {
  const ids = rows.map((r) => JSON.parse(r.node_ids) as number[]);
  const names = await nodeNames(ctx.db, [...new Set(ids.flat())]);
  return rows.map((r, i) => ({
    id: r.id,
    title: r.title,
    starts_at: r.starts_at,
    ends_at: r.ends_at,
    // A node deleted since drops out of the list.
    nodes: ids[i].filter((id) => names.has(id)).map((id) => ({ node_id: id, name: names.get(id) ?? "" })),
    cancelled_at: r.cancelled_at,
  }));
}

/** The status page's windows: not cancelled, not ended more than 7 days ago; soonest first. */
export async function activeMaintenance(ctx: AppContext, now: Date): Promise<MaintenanceView[]> {
  const rows = await ctx.db
    .selectFrom("uptime_maintenance")
    .selectAll()
    .where("cancelled_at", "is", null)
    .where("ends_at", ">", new Date(now.getTime() - SHOWN_AFTER_END_MS).toISOString())
    .orderBy("starts_at")
    .execute();
  return views(ctx, rows);
}

/** GET /super/maintenance: newest first, at most 200. */
export async function listMaintenance(ctx: AppContext): Promise<MaintenanceView[]> {
  const rows = await ctx.db.selectFrom("uptime_maintenance").selectAll().orderBy("id", "desc").limit(200).execute();
  return views(ctx, rows);
}

async function oneView(ctx: AppContext, id: number): Promise<MaintenanceView> {
  const row = await ctx.db.selectFrom("uptime_maintenance").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) throw notFound("维护计划");
  return (await views(ctx, [row]))[0];
}

/** Every node named exists, and the window ends after it starts. */
async function checkWindow(trx: Tx, w: { starts_at: string; ends_at: string; node_ids: number[] }): Promise<void> {
  if (w.ends_at <= w.starts_at) throw invalid("ends_at", "结束时间须晚于开始时间");
  const names = await nodeNames(trx, w.node_ids);
  const missing = w.node_ids.find((id) => !names.has(id));
  if (missing !== undefined) throw invalid("node_ids", `节点 ${missing} 不存在`);
}

async function announce(trx: Tx, row: Row, action: "announced" | "updated" | "cancelled"): Promise<void> {
  const node_ids = JSON.parse(row.node_ids) as number[];
  await recordEvent(trx, "node.maintenance", {
    maintenance_id: row.id,
    action,
    title: row.title,
    starts_at: row.starts_at,
    ends_at: row.ends_at,
    node_ids,
    uids: await customersOnNodes(trx, node_ids),
  });
}

export async function createMaintenance(
  ctx: AppContext,
  op: Operator,
  body: CreateMaintenanceBody,
): Promise<MaintenanceView> {
  const now = new Date().toISOString();
  const id = await transact(ctx, async (trx) => {
    await checkWindow(trx, body);
    const row = await trx
      .insertInto("uptime_maintenance")
      .values({
        ...body,
        node_ids: JSON.stringify(body.node_ids),
        cancelled_at: null,
        created_by: op.uid,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await announce(trx, row, "announced");
    await audit(trx, {
      operatorUid: op.uid,
      action: "maintenance.create",
      target: `maintenance:${row.id}`,
      detail: body,
      ip: op.ip,
    });
    return row.id;
  });
  return oneView(ctx, id);
}

/** The row under a lock on PostgreSQL (two edits at once apply one after the other); cancelled ones are final. */
async function lockedRow(trx: Tx, id: number): Promise<Row> {
  const q = trx.selectFrom("uptime_maintenance").selectAll().where("id", "=", id);
  const row = await (isPostgres(trx) ? q.forUpdate() : q).executeTakeFirst();
  if (!row) throw notFound("维护计划");
  if (row.cancelled_at) throw refused("该维护计划已取消，不能再修改");
  return row;
}

export async function updateMaintenance(
  ctx: AppContext,
  op: Operator,
  body: UpdateMaintenanceBody,
): Promise<MaintenanceView> {
  await transact(ctx, async (trx) => {
    const cur = await lockedRow(trx, body.id);
    const next = {
      title: body.title ?? cur.title,
      starts_at: body.starts_at ?? cur.starts_at,
      ends_at: body.ends_at ?? cur.ends_at,
      node_ids: body.node_ids ?? (JSON.parse(cur.node_ids) as number[]),
    };
    await checkWindow(trx, next);
    const row = await trx
      .updateTable("uptime_maintenance")
      .set({ ...next, node_ids: JSON.stringify(next.node_ids), updated_at: new Date().toISOString() })
      .where("id", "=", body.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await announce(trx, row, "updated");
    await audit(trx, {
      operatorUid: op.uid,
      action: "maintenance.update",
      target: `maintenance:${body.id}`,
      detail: body,
      ip: op.ip,
    });
  });
  return oneView(ctx, body.id);
}

export async function cancelMaintenance(ctx: AppContext, op: Operator, id: number): Promise<MaintenanceView> {
  await transact(ctx, async (trx) => {
    await lockedRow(trx, id);
    const row = await trx
      .updateTable("uptime_maintenance")
      .set({ cancelled_at: new Date().toISOString(), updated_at: new Date().toISOString() })
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await announce(trx, row, "cancelled");
    await audit(trx, { operatorUid: op.uid, action: "maintenance.cancel", target: `maintenance:${id}`, ip: op.ip });
  });
  return oneView(ctx, id);
}

/** Windows that ended before `cutoff` go (the pruning job). */
export async function pruneMaintenance(ctx: AppContext, cutoff: string): Promise<void> {
  await ctx.db.deleteFrom("uptime_maintenance").where("ends_at", "<", cutoff).execute();
}
