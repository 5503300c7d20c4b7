import { DomainsApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { addDomain, deleteDomain, listAdminDomains, listDomains, unbindDomain, verifyDomain } from "./domains.service";

export function domainsRoutes(api: FastifyInstance, ctx: AppContext): void {
  defineRoute(api, ctx, DomainsApi.getUserDomain, ({ user, query }) => listDomains(ctx, user.uid, query));
  defineRoute(api, ctx, DomainsApi.postUserDomain, ({ user, body }) => addDomain(ctx, user.uid, body));
  defineRoute(api, ctx, DomainsApi.deleteUserDomain, ({ user, body }) => deleteDomain(ctx, user.uid, body.id));
  defineRoute(api, ctx, DomainsApi.postUserDomainVerify, ({ user, body }) => verifyDomain(ctx, user.uid, body.id));
  defineRoute(api, ctx, DomainsApi.getSuperDomain, ({ query }) => listAdminDomains(ctx, query));
  defineRoute(api, ctx, DomainsApi.postSuperDomainUnbind, ({ body, operator }) => unbindDomain(ctx, operator, body));
}
