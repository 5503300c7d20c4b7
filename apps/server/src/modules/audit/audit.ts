import type { AuditAction, AuditOperator, AuditQuery, AuditRow, Paged } from "@burrow/contract";
import { auditActionLabel, auditChanges, auditTargetLabel } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { parseJson } from "../../shared/json";
import { countRows, pageOf } from "../../shared/paging";
import { nowIso } from "../../shared/time";
import { userBriefs } from "../users/users.repository";

/**
 * Writes one audit row for an admin write; call inside the write's transaction. The action must
 * be one of the codes named in the contract (AuditActionLabel), so the log can name it. A detail
 * of `{ before, after }` is shown field by field as old → new.
 */
export async function audit(
  db: Kysely<DB>,
  entry: { operatorUid: number; action: AuditAction | (string & {}); target: string; detail?: unknown; ip: string },
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

/**
 * The detail of an update, so the log shows "字段：旧值 → 新值": every field the request set (an
 * undefined one is not set), with its value in `before` (the row read before the write) and in
 * `after`; `extra` is recorded beside them (values without an old one: ids, amounts, reasons).
 */
export function changeDetail(
  before: object,
  after: object,
  extra: Record<string, unknown> = {},
): { before: Record<string, unknown>; after: Record<string, unknown> } & Record<string, unknown> {
  const old = before as Record<string, unknown>;
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(after)) {
    if (v === undefined) continue;
    b[k] = old[k] ?? null;
    a[k] = v;
  }
  return { ...extra, before: b, after: a };
}

/** GET /super/audit: newest first, each row with its action's name, the operator and the changes. */
export async function listAudit(ctx: AppContext, query: AuditQuery): Promise<Paged<AuditRow>> {
  let q = ctx.db.selectFrom("audit_logs");
  if (query.operator_uid) q = q.where("operator_uid", "=", query.operator_uid);
  if (query.action) q = q.where("action", "=", query.action);
  const page = await pageOf(
    query.page,
    query.size,
    (limit, offset) => q.selectAll().orderBy("id", "desc").limit(limit).offset(offset).execute(),
    () => countRows(q, ctx.db),
  );
  const who = await userBriefs(
    ctx.db,
    page.list.map((r) => r.operator_uid),
  );
  return {
    ...page,
    list: page.list.map((r) => ({
      id: r.id,
      operator_uid: r.operator_uid,
      operator_name: who.get(r.operator_uid)?.nickname ?? (r.operator_uid === 0 ? "命令行" : ""),
      operator_phone: who.get(r.operator_uid)?.phone ?? "",
      action: r.action,
      action_label: auditActionLabel(r.action),
      target: r.target,
      target_label: auditTargetLabel(r.target),
      changes: auditChanges(r.action, r.target, parseJson<unknown>(r.detail, {})),
      detail: r.detail,
      ip: r.ip,
      created_at: r.created_at,
    })),
  };
}

/** GET /super/audit/operators: everyone who wrote a row (uid 0: the command line), for the filter. */
export async function auditOperators(ctx: AppContext): Promise<AuditOperator[]> {
  const rows = await ctx.db
    .selectFrom("audit_logs")
    .select("operator_uid")
    .distinct()
    .orderBy("operator_uid")
    .execute();
  const who = await userBriefs(
    ctx.db,
    rows.map((r) => r.operator_uid),
  );
  return rows.map((r) => ({
    uid: r.operator_uid,
    name: who.get(r.operator_uid)?.nickname ?? (r.operator_uid === 0 ? "命令行" : ""),
    phone: who.get(r.operator_uid)?.phone ?? "",
  }));
}
