import type { SiteInfo } from "@burrow/contract";
import { SiteApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";

/** Brand and footer values for the public layout; all come from configuration. */
export function siteRoutes(app: FastifyInstance, ctx: AppContext): void {
  const c = ctx.config;
  const info: SiteInfo = {
    brand: c.SITE_BRAND,
    cloud_provider: c.SITE_CLOUD_PROVIDER,
    police_no: c.SITE_POLICE_NO,
    icp_no: c.SITE_ICP_NO,
    license_no: c.SITE_LICENSE_NO,
    copyright_start: 2024,
    // The operator's pages say what is missing without it (node set-up, third-party sign-in).
    public_url: c.PUBLIC_URL?.replace(/\/+$/, "") ?? null,
  };
  defineRoute(app, ctx, SiteApi.getPublicSite, async () => info);
  defineRoute(app, ctx, SiteApi.getHealthz, async () => {
    await ctx.db.selectFrom("settings").select("key").limit(1).execute();
    return { status: "ok" };
  });
}
