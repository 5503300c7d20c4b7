import type { AddDomainBody, AdminDomainListQuery, AdminUnbindDomainBody, DomainListQuery } from "@burrow/contract";
import { DomainsApi } from "@burrow/contract";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";
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
  queryOptions({
    queryKey: domainsKeys.list(filters),
    queryFn: ({ signal }) => api.call(DomainsApi.getUserDomain, { query: filters }, { signal }),
    placeholderData: keepPreviousData,
  });

export const addDomain = (body: AddDomainBody) => api.call(DomainsApi.postUserDomain, { body });
export const verifyDomain = (id: number) => api.call(DomainsApi.postUserDomainVerify, { body: { id } });
export const deleteDomain = (id: number) => api.call(DomainsApi.deleteUserDomain, { body: { id } });

/** GET /super/domain */
export const adminDomainsQuery = (filters: AdminDomainFilters) =>
  queryOptions({
    queryKey: domainsKeys.adminList(filters),
    queryFn: ({ signal }) => api.call(DomainsApi.getSuperDomain, { query: filters }, { signal }),
    placeholderData: keepPreviousData,
  });

export const unbindDomain = (body: AdminUnbindDomainBody) => api.call(DomainsApi.postSuperDomainUnbind, { body });
