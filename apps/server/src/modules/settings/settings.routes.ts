import { SettingsApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { siteSettings } from "./settings.service";

/** The operator's site-wide settings page (/admin/setting). */
export function settingsRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, SettingsApi.getSuperSettings, () => siteSettings(ctx));
}
