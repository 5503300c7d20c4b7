import type { Generated } from "kysely";
import type { CatalogTables } from "../modules/catalog/catalog.table";
import type { DashboardTables } from "../modules/dashboard/dashboard.table";
import type { DownloadTables } from "../modules/downloads/downloads.table";
import type { FrpTables } from "../modules/frp/frp.table";
import type { MarketingTables } from "../modules/marketing/marketing.table";
import type { OrderTables } from "../modules/orders/orders.table";
import type { TunnelTables } from "../modules/tunnels/tunnels.table";
import type { UserTables } from "../modules/users/users.table";

/** Settings key/value store (JWT secret, default plan id, …). */
export interface SettingsTable {
  key: string;
  value: string;
}

/** Background-job leases (shared/jobs.ts): the holder of an unexpired lease runs the job. */
export interface JobLeaseTable {
  name: string;
  holder: string;
  expires_at: string;
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
export interface DB
  extends UserTables,
    CatalogTables,
    DashboardTables,
    OrderTables,
    MarketingTables,
    TunnelTables,
    FrpTables,
    DownloadTables {
  settings: SettingsTable;
  audit_logs: AuditLogTable;
  job_leases: JobLeaseTable;
}
