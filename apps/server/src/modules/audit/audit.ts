import { AuditApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { defineRoute } from "../../http/route";
import { countRows, pageOf } from "../../shared/paging";
import { nowIso } from "../../shared/time";

/** Writes one audit row for an admin write; call inside the write's transaction. */
export async function audit(
  db: Kysely<DB>,
  entry: { operatorUid: number; action: string; target: string; detail?: unknown; ip: string },
): Promise<void> {
  await db
    .insertInto("audit_logs")
    .values({
      operator_uid: entry.operatorUid,
      action: entry.action,
      target: entry.target,
      detail: JSON.stringify(entry.detail ?? {}),
      ip: entry.ip,
      created_at: nowIso(),
    })
    .execute();
}

export function auditRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, AuditApi.getSuperAudit, async ({ query }) => {
    let q = ctx.db.selectFrom("audit_logs");
    if (query.operator_uid) q = q.where("operator_uid", "=", query.operator_uid);
    if (query.action) q = q.where("action", "=", query.action);
    return pageOf(
      query.page,
      query.size,
      (limit, offset) => q.selectAll().orderBy("id", "desc").limit(limit).offset(offset).execute(),
      () => countRows(q, ctx.db),
    );
  });
}
