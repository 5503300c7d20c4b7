import { SettingsApi } from "@burrow/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";

export const settingsKeys = {
  all: ["settings"] as const,
};

/** GET /super/settings: every site-wide setting, with the configuration in force. */
export const siteSettingsQuery = () =>
  queryOptions({
    queryKey: settingsKeys.all,
    queryFn: ({ signal }) => api.call(SettingsApi.getSuperSettings, {}, { signal }),
  });
