import type { AddDomainBody, AdminDomainListQuery, AdminUnbindDomainBody, DomainListQuery } from "@burrow/contract";
import { DomainsApi } from "@burrow/contract";
import { api } from "@/api/client";
import { pagedListQuery } from "@/lib/table-query";
import type { ListFilters } from "@/lib/url-filters";

export type DomainFilters = ListFilters<DomainListQuery>;
export type AdminDomainFilters = ListFilters<AdminDomainListQuery>;

export const domainsKeys = {
  all: ["domains"] as const,
  list: (f: DomainFilters) => [...domainsKeys.all, "list", f] as const,
  adminList: (f: AdminDomainFilters) => [...domainsKeys.all, "admin", f] as const,
};

/** GET /user/domain */
export const myDomainsQuery = (filters: DomainFilters) =>
  pagedListQuery(domainsKeys.list(filters), DomainsApi.getUserDomain, filters);

export const addDomain = (body: AddDomainBody) => api.call(DomainsApi.postUserDomain, { body });
export const verifyDomain = (id: number) => api.call(DomainsApi.postUserDomainVerify, { body: { id } });
export const deleteDomain = (id: number) => api.call(DomainsApi.deleteUserDomain, { body: { id } });

/** GET /super/domain */
export const adminDomainsQuery = (filters: AdminDomainFilters) =>
  pagedListQuery(domainsKeys.adminList(filters), DomainsApi.getSuperDomain, filters);

export const unbindDomain = (body: AdminUnbindDomainBody) => api.call(DomainsApi.postSuperDomainUnbind, { body });
