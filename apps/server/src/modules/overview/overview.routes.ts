import { OverviewApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { viewInfo } from "./overview";
import { setSetupDismissed, setupChecklist } from "./setup-checklist";

/** The operator's overview (/admin/view): figures, waiting queues and the set-up checklist. */
export function overviewRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, OverviewApi.getSuperViewInfo, ({ user }) => viewInfo(ctx, user.role));
  defineRoute(app, ctx, OverviewApi.getSuperSetup, () => setupChecklist(ctx));
  defineRoute(app, ctx, OverviewApi.postSuperSetup, ({ body, operator }) =>
    setSetupDismissed(ctx, operator, body.dismissed),
  );
}
