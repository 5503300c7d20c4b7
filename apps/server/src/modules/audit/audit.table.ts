import type { Generated } from "kysely";

/** Every admin write, one row each (audit.ts writes them inside the write's transaction). */
export interface AuditLogTable {
  id: Generated<number>;
  operator_uid: number;
  action: string;
  target: string;
  detail: string;
  ip: string;
  created_at: string;
}

/** Owned by the audit module. */
export interface AuditTables {
  audit_logs: AuditLogTable;
}
