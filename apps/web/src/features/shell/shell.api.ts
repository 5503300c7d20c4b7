import { MenuApi, SiteApi } from "@burrow/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";

/** The two menu scopes of SPEC §6. */
export type MenuArea = "console" | "admin";

export const shellKeys = {
  all: ["shell"] as const,
  site: () => [...shellKeys.all, "site"] as const,
  menu: (area: MenuArea) => [...shellKeys.all, "menu", area] as const,
};

/** GET /public/site: brand and footer values; they change only with server configuration. */
export const siteQuery = () =>
  queryOptions({
    queryKey: shellKeys.site(),
    queryFn: ({ signal }) => api.call(SiteApi.getPublicSite, {}, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });

const menuEndpoint = {
  /** the customer sidebar; also the customer area's access list */
  console: MenuApi.getUserRolemenu,
  /** the admin sidebar, paths relative to /admin; 30004 for non-staff */
  admin: MenuApi.getSuperRoleMenu,
} as const;

/** GET /user/rolemenu or GET /super/roleMenu. */
export const menuQuery = (area: MenuArea) =>
  queryOptions({
    queryKey: shellKeys.menu(area),
    queryFn: ({ signal }) => api.call(menuEndpoint[area], {}, { signal }),
    staleTime: 5 * 60_000,
  });
