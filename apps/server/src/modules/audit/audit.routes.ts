import { AuditApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { auditOperators, listAudit } from "./audit";

export function auditRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, AuditApi.getSuperAudit, ({ query }) => listAudit(ctx, query));
  defineRoute(app, ctx, AuditApi.getSuperAuditOperators, () => auditOperators(ctx));
}
