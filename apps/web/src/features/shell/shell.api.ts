import type { MenuItem, SiteInfo } from "@burrow/contract";
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
    queryFn: ({ signal }) => api.get<SiteInfo>("/public/site", { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });

const menuUrl: Record<MenuArea, string> = {
  /** the customer sidebar; also the customer area's access list */
  console: "/user/rolemenu",
  /** the admin sidebar, paths relative to /admin; 30004 for non-staff */
  admin: "/super/roleMenu",
};

/** GET /user/rolemenu or GET /super/roleMenu. */
export const menuQuery = (area: MenuArea) =>
  queryOptions({
    queryKey: shellKeys.menu(area),
    queryFn: ({ signal }) => api.get<MenuItem[]>(menuUrl[area], { signal }),
    staleTime: 5 * 60_000,
  });
