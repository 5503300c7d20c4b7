import { z } from "zod";
import {
  MaintenanceViewAnswer,
  ProviderStatusAnswer,
  PublicTunnelStatusAnswer,
  TunnelUptimeAnswer,
} from "../answers/uptime";
import { endpoint } from "../endpoint";
import { TunIdParams } from "../tunnels";
import {
  CancelMaintenanceBody,
  CreateMaintenanceBody,
  type MaintenanceView,
  type ProviderStatus,
  type PublicTunnelStatus,
  type TunnelUptime,
  UpdateMaintenanceBody,
  UptimePublicBody,
  UptimeSlugParams,
} from "../uptime";

/** Uptime history, public status pages and maintenance windows (docs/uptime.md). */
export const UptimeApi = {
  getUserTunTunidUptime: endpoint<TunnelUptime>()({
    method: "GET",
    url: "/user/tun/:tunid/uptime",
    access: "user",
    scope: "tunnels:read",
    answer: TunnelUptimeAnswer,
    summary: "the tunnel's 90 daily uptime bars (Asia/Shanghai days), incidents over two minutes, its public page",
    params: TunIdParams,
  }),
  putUserTunTunidUptimePublic: endpoint<TunnelUptime>()({
    method: "PUT",
    url: "/user/tun/:tunid/uptime/public",
    access: "user",
    scope: "tunnels:write",
    answer: TunnelUptimeAnswer,
    summary:
      "turns the tunnel's public status page on (an unguessable slug, made once) or off (its page and badge 404)",
    params: TunIdParams,
    body: UptimePublicBody,
  }),
  getStatusTSlug: endpoint<PublicTunnelStatus>()({
    method: "GET",
    url: "/status/t/:slug",
    access: "public",
    answer: PublicTunnelStatusAnswer,
    summary: "a tunnel's public status page: name, state, 90 days, incidents (404 unless its owner turned it on)",
    params: UptimeSlugParams,
  }),
  getStatus: endpoint<ProviderStatus>()({
    method: "GET",
    url: "/status",
    access: "public",
    answer: ProviderStatusAnswer,
    summary: "the provider status page: every node's state and 90-day uptime, maintenance announced",
  }),
  getSuperMaintenance: endpoint<MaintenanceView[]>()({
    method: "GET",
    url: "/super/maintenance",
    access: "manager",
    answer: z.array(MaintenanceViewAnswer),
    summary: "maintenance windows, newest first (cancelled ones too)",
  }),
  postSuperMaintenance: endpoint<MaintenanceView>()({
    method: "POST",
    url: "/super/maintenance",
    access: "manager",
    answer: MaintenanceViewAnswer,
    summary: "announces a maintenance window on nodes; their customers are told (node.maintenance)",
    body: CreateMaintenanceBody,
  }),
  patchSuperMaintenance: endpoint<MaintenanceView>()({
    method: "PATCH",
    url: "/super/maintenance",
    access: "manager",
    answer: MaintenanceViewAnswer,
    summary: "edits a maintenance window; the customers are told again",
    body: UpdateMaintenanceBody,
  }),
  deleteSuperMaintenance: endpoint<MaintenanceView>()({
    method: "DELETE",
    url: "/super/maintenance",
    access: "manager",
    answer: MaintenanceViewAnswer,
    summary: "cancels a maintenance window; the customers are told",
    body: CancelMaintenanceBody,
  }),
} as const;
