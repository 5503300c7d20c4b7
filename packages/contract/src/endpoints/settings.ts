import { SiteSettingsAnswer } from "../answers/settings";
import { endpoint } from "../endpoint";
import type { SiteSettings } from "../settings";

/** The site-wide settings page (see endpoint.ts). */
export const SettingsApi = {
  getSuperSettings: endpoint<SiteSettings>()({
    method: "GET",
    url: "/super/settings",
    access: "manager",
    answer: SiteSettingsAnswer,
    summary:
      "every site-wide setting: verification requirement and channel, affiliate programme, assistant, defaults, gateways",
  }),
} as const;
