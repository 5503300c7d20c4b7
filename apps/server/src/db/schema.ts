import type { Generated } from "kysely";
import type { AffiliateTables } from "../modules/affiliate/affiliate.table";
import type { AgentTables } from "../modules/agents/agents.table";
import type { ApitokensTables } from "../modules/apitokens/apitokens.table";
import type { AssistantTables } from "../modules/assistant/assistant.table";
import type { AuditTables } from "../modules/audit/audit.table";
import type { AuthTables } from "../modules/auth/auth.table";
import type { AutopayTables } from "../modules/autopay/autopay.table";
import type { DashboardTables } from "../modules/dashboard/dashboard.table";
import type { DomainTables } from "../modules/domains/domains.table";
import type { DownloadTables } from "../modules/downloads/downloads.table";
import type { FrpTables } from "../modules/frp/frp.table";
import type { HomeTables } from "../modules/home/home.table";
import type { InvoiceTables } from "../modules/invoices/invoices.table";
import type { LaunchTables } from "../modules/launch/launch.table";
import type { LeavingTables } from "../modules/leaving/leaving.table";
import type { MarketingTables } from "../modules/marketing/marketing.table";
import type { NodeTables } from "../modules/nodes/nodes.table";
import type { NoticesTables } from "../modules/notices/notices.table";
import type { OidcTables } from "../modules/oidc/oidc.table";
import type { OrderTables } from "../modules/orders/orders.table";
import type { PlanTables } from "../modules/plans/plans.table";
import type { ReachTables } from "../modules/reach/reach.table";
import type { SslTables } from "../modules/ssl/ssl.table";
import type { SubscriptionTables } from "../modules/subscriptions/subscriptions.table";
import type { TicketTables } from "../modules/tickets/tickets.table";
import type { ShieldTables } from "../modules/tunnels/shield.table";
import type { TunnelTables } from "../modules/tunnels/tunnels.table";
import type { UptimeTables } from "../modules/uptime/uptime.table";
import type { UserTables } from "../modules/users/users.table";
import type { VerifyTables } from "../modules/verify/verify.table";
import type { WebhooksTables } from "../modules/webhooks/webhooks.table";

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

/** Domain events recorded with the change they announce (shared/outbox.ts). */
export interface OutboxEventTable {
  id: Generated<number>;
  type: string;
  /** JSON of the type's payload */
  payload: string;
  /** the customer concerned, when there is one */
  uid: number | null;
  /** unique when set: an event recorded at most once (recordEvent's `key`) */
  dedupe_key: string | null;
  created_at: string;
  /** 1 once a dispatcher created a delivery row for every handler of the type */
  fanned_out: number;
}

/** One handler's delivery of one event: (event_id, handler) unique (shared/outbox-dispatch.ts). */
export interface OutboxDeliveryTable {
  id: Generated<number>;
  event_id: number;
  handler: string;
  /** "pending" (to run, at `next_at`), "done", "dead" (gave up after the last attempt) */
  status: string;
  attempts: number;
  next_at: string;
  /** the process running it now, until `lease_until` (another takes it over after) */
  holder: string | null;
  lease_until: string | null;
  last_error: string | null;
  updated_at: string;
}

/** The whole database, assembled from each domain's tables. */
export interface DB
  extends UserTables,
    AuthTables,
    AutopayTables,
    AuditTables,
    NodeTables,
    PlanTables,
    SubscriptionTables,
    DashboardTables,
    OrderTables,
    OidcTables,
    MarketingTables,
    TunnelTables,
    ShieldTables,
    FrpTables,
    DownloadTables,
    LaunchTables,
    TicketTables,
    HomeTables,
    VerifyTables,
    DomainTables,
    AffiliateTables,
    AssistantTables,
    InvoiceTables,
    SslTables,
    AgentTables,
    ApitokensTables,
    LeavingTables,
    WebhooksTables,
    UptimeTables,
    ReachTables,
    NoticesTables {
  settings: SettingsTable;
  job_leases: JobLeaseTable;
  outbox_events: OutboxEventTable;
  outbox_deliveries: OutboxDeliveryTable;
}
