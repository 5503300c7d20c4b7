import { AffiliateApi } from "./affiliate";
import { AgentsApi } from "./agents";
import { ApidocsApi } from "./apidocs";
import { ApitokensApi } from "./apitokens";
import { AssistantApi } from "./assistant";
import { AuditApi } from "./audit";
import { AuthApi } from "./auth";
import { AutopayApi } from "./autopay";
import { DashboardApi } from "./dashboard";
import { DomainsApi } from "./domains";
import { DownloadsApi } from "./downloads";
import { FrpApi } from "./frp";
import { HomeApi } from "./home";
import { InvoicesApi } from "./invoices";
import { LaunchApi } from "./launch";
import { LeavingApi } from "./leaving";
import { MarketingApi } from "./marketing";
import { MenuApi } from "./menu";
import { NodesApi } from "./nodes";
import { NoticesApi } from "./notices";
import { OidcApi } from "./oidc";
import { OrdersApi } from "./orders";
import { OutboxApi } from "./outbox";
import { OverviewApi } from "./overview";
import { PaymentsApi } from "./payments";
import { PlansApi } from "./plans";
import { ReachApi } from "./reach";
import { SettingsApi } from "./settings";
import { SiteApi } from "./site";
import { SslApi } from "./ssl";
import { StoreApi } from "./store";
import { SubscriptionsApi } from "./subscriptions";
import { TicketsApi } from "./tickets";
import { TrafficApi } from "./traffic";
import { TunnelsApi } from "./tunnels";
import { UptimeApi } from "./uptime";
import { UsermgrApi } from "./usermgr";
import { UsersApi } from "./users";
import { VerifyApi } from "./verify";
import { WebhooksApi } from "./webhooks";

export { AffiliateApi } from "./affiliate";
export { AgentsApi } from "./agents";
export { ApidocsApi } from "./apidocs";
export { ApitokensApi } from "./apitokens";
export { AssistantApi } from "./assistant";
export { AuditApi } from "./audit";
export { AuthApi } from "./auth";
export { AutopayApi } from "./autopay";
export { DashboardApi } from "./dashboard";
export { DomainsApi } from "./domains";
export { DownloadsApi } from "./downloads";
export { FrpApi } from "./frp";
export { HomeApi } from "./home";
export { InvoicesApi } from "./invoices";
export { LaunchApi } from "./launch";
export { LeavingApi } from "./leaving";
export { MarketingApi } from "./marketing";
export { MenuApi } from "./menu";
export { NodesApi } from "./nodes";
export { NoticesApi } from "./notices";
export { OidcApi } from "./oidc";
export { OrdersApi } from "./orders";
export { OutboxApi } from "./outbox";
export { OverviewApi } from "./overview";
export { PaymentsApi } from "./payments";
export { PlansApi } from "./plans";
export { ReachApi } from "./reach";
export { SettingsApi } from "./settings";
export { SiteApi } from "./site";
export { SslApi } from "./ssl";
export { StoreApi } from "./store";
export { SubscriptionsApi } from "./subscriptions";
export { TicketsApi } from "./tickets";
export { TrafficApi } from "./traffic";
export { TunnelsApi } from "./tunnels";
export { UptimeApi } from "./uptime";
export { UsermgrApi } from "./usermgr";
export { UsersApi } from "./users";
export { VerifyApi } from "./verify";
export { WebhooksApi } from "./webhooks";

/** Every endpoint of the API, by domain: the server registers from it, the OpenAPI document and the route-table test read it. */
export const Endpoints = {
  affiliate: AffiliateApi,
  agents: AgentsApi,
  apidocs: ApidocsApi,
  apitokens: ApitokensApi,
  assistant: AssistantApi,
  audit: AuditApi,
  auth: AuthApi,
  autopay: AutopayApi,
  dashboard: DashboardApi,
  domains: DomainsApi,
  downloads: DownloadsApi,
  frp: FrpApi,
  home: HomeApi,
  invoices: InvoicesApi,
  launch: LaunchApi,
  leaving: LeavingApi,
  marketing: MarketingApi,
  menu: MenuApi,
  nodes: NodesApi,
  notices: NoticesApi,
  oidc: OidcApi,
  orders: OrdersApi,
  outbox: OutboxApi,
  overview: OverviewApi,
  payments: PaymentsApi,
  plans: PlansApi,
  reach: ReachApi,
  settings: SettingsApi,
  site: SiteApi,
  ssl: SslApi,
  store: StoreApi,
  subscriptions: SubscriptionsApi,
  traffic: TrafficApi,
  tickets: TicketsApi,
  tunnels: TunnelsApi,
  uptime: UptimeApi,
  usermgr: UsermgrApi,
  users: UsersApi,
  verify: VerifyApi,
  webhooks: WebhooksApi,
} as const;
