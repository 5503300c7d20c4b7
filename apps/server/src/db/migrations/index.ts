import type { Migration } from "kysely";
import * as foundation from "./2026-11-21T00-00_foundation";
import * as store from "./2026-11-22T10-00_store";
import * as tunnels from "./2026-11-22T12-00_tunnels";
import * as checkins from "./2026-11-22T14-00_checkins";
import * as proxyTails from "./2026-11-22T16-00_proxy_tails";
import * as connCounts from "./2026-11-22T18-00_conn_counts";
import * as subscriptionValue from "./2026-11-24T10-00_subscription_value";
import * as frpRolloverSkew from "./2026-11-24T15-00_frp_rollover_skew";
import * as frpInflight from "./2026-11-24T16-00_frp_inflight";
import * as homeContent from "./2026-11-24T16-20_home_content";
import * as tickets from "./2026-11-24T16-30_tickets";
import * as verifications from "./2026-11-24T16-30_verifications";
import * as overviewIndexes from "./2026-11-24T16-40_overview_indexes";
import * as subscriptionFreeParts from "./2026-11-24T17-00_subscription_free_parts";
import * as assistant from "./2026-11-24T20-30_assistant";
import * as domains from "./2026-11-24T20-30_domains";
import * as invoices from "./2026-11-24T20-30_invoices";
import * as affiliate from "./2026-11-24T20-40_affiliate";
import * as oidc from "./2026-11-24T20-40_oidc";
import * as ssl from "./2026-11-24T20-40_ssl";
import * as scaleIndexes from "./2026-11-25T00-00_scale_indexes";
import * as scaleListIndexes from "./2026-11-25T03-00_scale_list_indexes";
import * as phoneSearch from "./2026-11-25T06-00_phone_search";
import * as tunnelNameSearch from "./2026-11-25T08-00_tunnel_name_search";
import * as orphanTunnels from "./2026-11-25T11-00_orphan_tunnels";
import * as trafficUidNode from "./2026-11-25T13-00_traffic_uid_node";
import * as tunnelStaleCloses from "./2026-11-25T16-00_tunnel_stale_closes";
import * as rebatesFollowValue from "./2026-11-27T10-00_rebates_follow_value";
import * as verifyHolds from "./2026-11-27T11-00_verify_holds";
import * as openAppealUnique from "./2026-11-27T12-00_open_appeal_unique";
import * as verifyNameHash from "./2026-11-27T15-00_verify_name_hash";
import * as verifyClaims from "./2026-11-27T16-00_verify_claims";
import * as subscriptionReplacedBy from "./2026-11-28T02-00_subscription_replaced_by";
import * as sessionScope from "./2026-11-28T03-00_session_scope";
import * as outbox from "./2026-11-28T04-00_outbox";
import * as apiTokens from "./2026-11-28T06-00_api_tokens";
import * as mfa from "./2026-11-28T06-10_mfa";
import * as tunnelEvents from "./2026-11-28T06-20_tunnel_events";
import * as nodeAgent from "./2026-11-28T06-30_node_agent";
import * as passkeys from "./2026-11-28T09-00_passkeys";
import * as notices from "./2026-11-28T09-10_notices";
import * as webhooks from "./2026-11-28T09-20_webhooks";
import * as uptime from "./2026-11-28T09-30_uptime";
import * as autoRenewal from "./2026-11-28T09-40_auto_renewal";
import * as accountDeletion from "./2026-11-28T09-50_account_deletion";
import * as assistantNoticesRetired from "./2026-11-28T13-01_assistant_notices_retired";
import * as visitorShield from "./2026-11-28T13-03_visitor_shield";
import * as tunnelSchedule from "./2026-11-28T13-04_tunnel_schedule";
import * as tunnelProxyProtocol from "./2026-11-28T13-05_tunnel_proxy_protocol";
import * as reachChecks from "./2026-11-28T13-06_reach_checks";
import * as tunnelMovedHold from "./2026-11-28T16-10_tunnel_moved_hold";
import * as tunnelSecretKey from "./2026-11-28T16-20_tunnel_secret_key";
import * as tunnelPortRange from "./2026-11-28T16-30_tunnel_port_range";
import * as downloadMirror from "./2026-11-28T20-11_download_mirror";
import * as launchTokens from "./2026-11-28T20-17_launch_tokens";
import * as launchTokenFrpBinding from "./2026-11-28T20-40_launch_token_frp_binding";

/** Every migration, by sortable name. Add new ones here; never edit or reorder existing ones. */
export const migrations: Record<string, Migration> = {
  "2026-11-21T00-00_foundation": foundation,
  "2026-11-22T10-00_store": store,
  "2026-11-22T12-00_tunnels": tunnels,
  "2026-11-22T14-00_checkins": checkins,
  "2026-11-22T16-00_proxy_tails": proxyTails,
  "2026-11-22T18-00_conn_counts": connCounts,
  "2026-11-24T10-00_subscription_value": subscriptionValue,
  "2026-11-24T15-00_frp_rollover_skew": frpRolloverSkew,
  "2026-11-24T16-00_frp_inflight": frpInflight,
  "2026-11-24T16-30_tickets": tickets,
  "2026-11-24T16-20_home_content": homeContent,
  "2026-11-24T16-40_overview_indexes": overviewIndexes,
  "2026-11-24T17-00_subscription_free_parts": subscriptionFreeParts,
  "2026-11-24T16-30_verifications": verifications,
  "2026-11-24T20-30_domains": domains,
  "2026-11-24T20-40_affiliate": affiliate,
  "2026-11-24T20-30_assistant": assistant,
  "2026-11-24T20-40_oidc": oidc,
  "2026-11-24T20-30_invoices": invoices,
  "2026-11-24T20-40_ssl": ssl,
  "2026-11-25T00-00_scale_indexes": scaleIndexes,
  "2026-11-25T03-00_scale_list_indexes": scaleListIndexes,
  "2026-11-25T06-00_phone_search": phoneSearch,
  "2026-11-25T08-00_tunnel_name_search": tunnelNameSearch,
  "2026-11-25T11-00_orphan_tunnels": orphanTunnels,
  "2026-11-25T13-00_traffic_uid_node": trafficUidNode,
  "2026-11-25T16-00_tunnel_stale_closes": tunnelStaleCloses,
  "2026-11-27T10-00_rebates_follow_value": rebatesFollowValue,
  "2026-11-27T12-00_open_appeal_unique": openAppealUnique,
  "2026-11-27T11-00_verify_holds": verifyHolds,
  "2026-11-27T15-00_verify_name_hash": verifyNameHash,
  "2026-11-27T16-00_verify_claims": verifyClaims,
  "2026-11-28T04-00_outbox": outbox,
  "2026-11-28T06-30_node_agent": nodeAgent,
  "2026-11-28T03-00_session_scope": sessionScope,
  "2026-11-28T02-00_subscription_replaced_by": subscriptionReplacedBy,
  "2026-11-28T06-00_api_tokens": apiTokens,
  "2026-11-28T06-10_mfa": mfa,
  "2026-11-28T06-20_tunnel_events": tunnelEvents,
  "2026-11-28T09-00_passkeys": passkeys,
  "2026-11-28T09-10_notices": notices,
  "2026-11-28T09-20_webhooks": webhooks,
  "2026-11-28T09-30_uptime": uptime,
  "2026-11-28T09-40_auto_renewal": autoRenewal,
  "2026-11-28T09-50_account_deletion": accountDeletion,
  "2026-11-28T13-03_visitor_shield": visitorShield,
  "2026-11-28T13-04_tunnel_schedule": tunnelSchedule,
  "2026-11-28T13-05_tunnel_proxy_protocol": tunnelProxyProtocol,
  "2026-11-28T13-06_reach_checks": reachChecks,
  "2026-11-28T13-01_assistant_notices_retired": assistantNoticesRetired,
  "2026-11-28T16-20_tunnel_secret_key": tunnelSecretKey,
  "2026-11-28T16-30_tunnel_port_range": tunnelPortRange,
  "2026-11-28T16-10_tunnel_moved_hold": tunnelMovedHold,
  "2026-11-28T20-11_download_mirror": downloadMirror,
  "2026-11-28T20-17_launch_tokens": launchTokens,
  "2026-11-28T20-40_launch_token_frp_binding": launchTokenFrpBinding,
};
