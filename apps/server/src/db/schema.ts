import type { AffiliateTables } from "../modules/affiliate/affiliate.table";
import type { AssistantTables } from "../modules/assistant/assistant.table";
import type { AuditTables } from "../modules/audit/audit.table";
import type { AuthTables } from "../modules/auth/auth.table";
import type { DashboardTables } from "../modules/dashboard/dashboard.table";
import type { DomainTables } from "../modules/domains/domains.table";
import type { DownloadTables } from "../modules/downloads/downloads.table";
import type { FrpTables } from "../modules/frp/frp.table";
import type { HomeTables } from "../modules/home/home.table";
import type { InvoiceTables } from "../modules/invoices/invoices.table";
import type { MarketingTables } from "../modules/marketing/marketing.table";
import type { NodeTables } from "../modules/nodes/nodes.table";
import type { OidcTables } from "../modules/oidc/oidc.table";
import type { OrderTables } from "../modules/orders/orders.table";
import type { PlanTables } from "../modules/plans/plans.table";
import type { SslTables } from "../modules/ssl/ssl.table";
import type { SubscriptionTables } from "../modules/subscriptions/subscriptions.table";
import type { TicketTables } from "../modules/tickets/tickets.table";
import type { TunnelTables } from "../modules/tunnels/tunnels.table";
import type { UserTables } from "../modules/users/users.table";
import type { VerifyTables } from "../modules/verify/verify.table";

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

/** The whole database, assembled from each domain's tables. */
export interface DB
  extends UserTables,
    AuthTables,
    AuditTables,
    NodeTables,
    PlanTables,
    SubscriptionTables,
    DashboardTables,
    OrderTables,
    OidcTables,
    MarketingTables,
    TunnelTables,
    FrpTables,
    DownloadTables,
    TicketTables,
    HomeTables,
    VerifyTables,
    DomainTables,
    AffiliateTables,
    AssistantTables,
    InvoiceTables,
    SslTables {
  settings: SettingsTable;
  job_leases: JobLeaseTable;
}
