import { z } from "zod";
import { pagedAnswer } from "../answers";
import { AdminDomainRowAnswer, DomainVerifyResultAnswer, DomainViewAnswer } from "../answers/domains";
import type { Paged } from "../codes";
import {
  AddDomainBody,
  AdminDomainListQuery,
  type AdminDomainRow,
  AdminUnbindDomainBody,
  DomainIdBody,
  DomainListQuery,
  type DomainVerifyResult,
  type DomainView,
} from "../domains";
import { endpoint } from "../endpoint";

/** Customer domains and their verification (see endpoint.ts). */
export const DomainsApi = {
  getUserDomain: endpoint<Paged<DomainView>>()({
    method: "GET",
    url: "/user/domain",
    access: "user",
    answer: pagedAnswer(DomainViewAnswer),
    summary: "my domains with the DNS records to create, their state and the tunnels using them",
    query: DomainListQuery,
  }),
  postUserDomain: endpoint<DomainView>()({
    method: "POST",
    url: "/user/domain",
    access: "user",
    answer: DomainViewAnswer,
    summary: "adds a domain (pending): answers the TXT record and the CNAME target to create",
    body: AddDomainBody,
  }),
  deleteUserDomain: endpoint<null>()({
    method: "DELETE",
    url: "/user/domain",
    access: "user",
    answer: z.null(),
    summary: "removes one of my domains that no tunnel uses",
    body: DomainIdBody,
  }),
  postUserDomainVerify: endpoint<DomainVerifyResult>()({
    method: "POST",
    url: "/user/domain/verify",
    access: "user",
    answer: DomainVerifyResultAnswer,
    summary: "looks the TXT and CNAME records up (DNS_SERVERS) and marks the domain verified, or says what is wrong",
    body: DomainIdBody,
  }),
  getSuperDomain: endpoint<Paged<AdminDomainRow>>()({
    method: "GET",
    url: "/super/domain",
    access: "manager",
    answer: pagedAnswer(AdminDomainRowAnswer),
    summary: "every customer domain with owner, state, tunnels using it and the last check",
    query: AdminDomainListQuery,
  }),
  postSuperDomainUnbind: endpoint<AdminDomainRow>()({
    method: "POST",
    url: "/super/domain/unbind",
    access: "manager",
    answer: AdminDomainRowAnswer,
    summary: "force-unbinds a domain (audited): its tunnels are refused from their next NewProxy",
    body: AdminUnbindDomainBody,
  }),
} as const;
