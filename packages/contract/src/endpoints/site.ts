import { HealthAnswer, SiteInfoAnswer } from "../answers/site";
import { endpoint } from "../endpoint";
import type { SiteInfo } from "../site";

/** The site endpoints (see endpoint.ts). */
export const SiteApi = {
  getPublicSite: endpoint<SiteInfo>()({
    method: "GET",
    url: "/public/site",
    access: "public",
    answer: SiteInfoAnswer,
    summary: "brand and footer values; they change only with server configuration",
  }),
  getHealthz: endpoint<{ status: "ok" }>()({
    method: "GET",
    url: "/healthz",
    access: "public",
    answer: HealthAnswer,
    summary: "liveness: answers once the database answers",
  }),
} as const;
