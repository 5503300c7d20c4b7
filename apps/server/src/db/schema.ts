import type { Generated } from "kysely";
import type { CatalogTables } from "../modules/catalog/catalog.table";
import type { UserTables } from "../modules/users/users.table";

/** Settings key/value store (JWT secret, default plan id, …). */
export interface SettingsTable {
  key: string;
  value: string;
}

export interface AuditLogTable {
  id: Generated<number>;
  operator_uid: number;
  action: string;
  target: string;
  detail: string;
  ip: string;
  created_at: string;
}

/** The whole database, assembled from each domain's tables. */
export interface DB extends UserTables, CatalogTables {
  settings: SettingsTable;
  audit_logs: AuditLogTable;
}
