import type { CreateMaintenanceBody, UpdateMaintenanceBody } from "@burrow/contract";
import { UptimeApi } from "@burrow/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";

export const uptimeKeys = {
  all: ["uptime"] as const,
  tunnel: (tunId: number) => [...uptimeKeys.all, "tunnel", tunId] as const,
  public: (slug: string) => [...uptimeKeys.all, "public", slug] as const,
  provider: () => [...uptimeKeys.all, "provider"] as const,
  maintenance: () => [...uptimeKeys.all, "maintenance"] as const,
};

/** GET /user/tun/{tunid}/uptime */
export const tunnelUptimeQuery = (tunId: number) =>
  queryOptions({
    queryKey: uptimeKeys.tunnel(tunId),
    queryFn: ({ signal }) => api.call(UptimeApi.getUserTunTunidUptime, { params: { tunid: tunId } }, { signal }),
    staleTime: 30_000,
  });

/** PUT /user/tun/{tunid}/uptime/public */
export const setPublicPage = (tunId: number, enabled: boolean) =>
  api.call(UptimeApi.putUserTunTunidUptimePublic, { params: { tunid: tunId }, body: { enabled } });

/** GET /status/t/{slug} (no login) */
export const publicStatusQuery = (slug: string) =>
  queryOptions({
    queryKey: uptimeKeys.public(slug),
    queryFn: ({ signal }) => api.call(UptimeApi.getStatusTSlug, { params: { slug } }, { signal }),
    staleTime: 30_000,
    retry: false,
  });

/** GET /status (no login) */
export const providerStatusQuery = () =>
  queryOptions({
    queryKey: uptimeKeys.provider(),
    queryFn: ({ signal }) => api.call(UptimeApi.getStatus, {}, { signal }),
    staleTime: 30_000,
  });

/** GET /super/maintenance */
export const maintenanceQuery = () =>
  queryOptions({
    queryKey: uptimeKeys.maintenance(),
    queryFn: ({ signal }) => api.call(UptimeApi.getSuperMaintenance, {}, { signal }),
  });

export const createMaintenance = (body: CreateMaintenanceBody) => api.call(UptimeApi.postSuperMaintenance, { body });
export const updateMaintenance = (body: UpdateMaintenanceBody) => api.call(UptimeApi.patchSuperMaintenance, { body });
export const cancelMaintenance = (id: number) => api.call(UptimeApi.deleteSuperMaintenance, { body: { id } });

/** The public page's address and its badge's, on this origin. */
export const publicPageUrl = (slug: string) => `${window.location.origin}/status/t/${slug}`;
export const badgeUrl = (slug: string) => `${publicPageUrl(slug)}/badge.svg`;
