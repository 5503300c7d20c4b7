import { DomainsApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import type { JobDef } from "../../shared/jobs";
import {
  addDomain,
  deleteDomain,
  listAdminDomains,
  listDomains,
  recheckDomains,
  unbindDomain,
  verifyDomain,
} from "./domains.service";

export function domainsRoutes(api: FastifyInstance, ctx: AppContext): void {
  defineRoute(api, ctx, DomainsApi.getUserDomain, ({ user, query }) => listDomains(ctx, user.uid, query));
  defineRoute(api, ctx, DomainsApi.postUserDomain, ({ user, body }) => addDomain(ctx, user.uid, body));
  defineRoute(api, ctx, DomainsApi.deleteUserDomain, ({ user, body }) => deleteDomain(ctx, user.uid, body.id));
  defineRoute(api, ctx, DomainsApi.postUserDomainVerify, ({ user, body }) => verifyDomain(ctx, user.uid, body.id));
  defineRoute(api, ctx, DomainsApi.getSuperDomain, ({ query }) => listAdminDomains(ctx, query));
  defineRoute(api, ctx, DomainsApi.postSuperDomainUnbind, ({ body, operator }) => unbindDomain(ctx, operator, body));
}

/** The daily re-check of verified domains (started by buildApp outside tests; tests call recheckDomains). */
export const domainJobs: JobDef[] = [
  { name: "domains.recheck", everyMs: 24 * 3_600_000, firstDelayMs: 60_000, run: (ctx) => recheckDomains(ctx) },
];
