import { UptimeApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { AppError, notFound } from "../../shared/errors";
import { BADGE_PATH, badgeSvg, validSlug } from "./badge";
import { cancelMaintenance, createMaintenance, listMaintenance, updateMaintenance } from "./maintenance";
import { providerStatus, publicTunnelStatus, setPublicPage, tunnelUptime } from "./uptime.service";

export function uptimeRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, UptimeApi.getUserTunTunidUptime, ({ params, user }) =>
    tunnelUptime(ctx, user.uid, params.tunid),
  );
  defineRoute(app, ctx, UptimeApi.putUserTunTunidUptimePublic, ({ params, body, user }) =>
    setPublicPage(ctx, user.uid, params.tunid, body.enabled),
  );
  defineRoute(app, ctx, UptimeApi.getStatusTSlug, ({ params, operator }) =>
    publicTunnelStatus(ctx, params.slug, operator.ip),
  );
  defineRoute(app, ctx, UptimeApi.getStatus, ({ operator }) => providerStatus(ctx, operator.ip));
  defineRoute(app, ctx, UptimeApi.getSuperMaintenance, () => listMaintenance(ctx));
  defineRoute(app, ctx, UptimeApi.postSuperMaintenance, ({ body, operator }) => createMaintenance(ctx, operator, body));
  defineRoute(app, ctx, UptimeApi.patchSuperMaintenance, ({ body, operator }) =>
    updateMaintenance(ctx, operator, body),
  );
  defineRoute(app, ctx, UptimeApi.deleteSuperMaintenance, ({ body, operator }) =>
    cancelMaintenance(ctx, operator, body.id),
  );
}

/**
 * The SVG badge, outside /api (embedded in READMEs, no credential): the public page's answer as an
 * image, cached a minute by browsers and proxies; 404 (no image) when the page is off or unknown.
 */
export function serveBadge(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Params: { slug: string } }>(BADGE_PATH, async (req, reply) => {
    try {
      if (!validSlug(req.params.slug)) throw notFound("状态页");
      const status = await publicTunnelStatus(ctx, req.params.slug, req.ip);
      return reply
        .header("content-type", "image/svg+xml; charset=utf-8")
        .header("cache-control", "public, max-age=60")
        .header("x-content-type-options", "nosniff")
        .send(badgeSvg(status));
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      return reply.code(e.status).header("cache-control", "no-store").type("text/plain; charset=utf-8").send(e.message);
    }
  });
}
