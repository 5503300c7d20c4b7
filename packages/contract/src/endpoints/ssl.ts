import { z } from "zod";
import { SslCertViewAnswer, SslOrderViewAnswer, SslOverviewAnswer } from "../answers/ssl";
import { endpoint } from "../endpoint";
import {
  type SslCertView,
  SslDownloadQuery,
  SslIdParams,
  SslIssueBody,
  type SslOrderView,
  type SslOverview,
  SslUploadBody,
} from "../ssl";

/** SSL certificates for the customer's verified domains (see ssl.ts). */
export const SslApi = {
  getUserSsl: endpoint<SslOverview>()({
    method: "GET",
    url: "/user/ssl",
    access: "user",
    answer: SslOverviewAnswer,
    summary:
      "my certificates, my ACME issues in progress (and those ended this week) and the domains a certificate may be for",
  }),
  postUserSsl: endpoint<SslCertView>()({
    method: "POST",
    url: "/user/ssl",
    access: "user",
    answer: SslCertViewAnswer,
    summary:
      "uploads a certificate for one of my verified domains: PEM chain (leaf first) + private key, checked (key matches, chain in order, dates, names); replaces the domain's certificate",
    body: SslUploadBody,
  }),
  deleteUserSsl: endpoint<null>()({
    method: "DELETE",
    url: "/user/ssl/:id",
    access: "user",
    answer: z.null(),
    summary: "deletes one of my certificates (its key is erased; renewals stop)",
    params: SslIdParams,
  }),
  getUserSslDownload: endpoint<null>()({
    method: "GET",
    url: "/user/ssl/:id/download",
    access: "user",
    summary: "one of my certificates as a PEM file: cert, key (private key, to its owner only), chain or fullchain",
    params: SslIdParams,
    query: SslDownloadQuery,
    raw: "file",
  }),
  postUserSslOrder: endpoint<SslOrderView>()({
    method: "POST",
    url: "/user/ssl/order",
    access: "user",
    answer: SslOrderViewAnswer,
    summary:
      "starts an ACME issue for one of my verified domains with a dns-01 (TXT record) or http-01 (file) challenge; answers the record to create",
    body: SslIssueBody,
  }),
  getUserSslOrder: endpoint<SslOrderView>()({
    method: "GET",
    url: "/user/ssl/order/:id",
    access: "user",
    answer: SslOrderViewAnswer,
    summary: "one of my ACME issues with its steps (the page polls it; a background job advances it)",
    params: SslIdParams,
  }),
  postUserSslOrderCheck: endpoint<SslOrderView>()({
    method: "POST",
    url: "/user/ssl/order/:id/check",
    access: "user",
    answer: SslOrderViewAnswer,
    summary: "checks my issue now instead of waiting for the job: looks the record up and moves on when it is in place",
    params: SslIdParams,
  }),
  postUserSslOrderCancel: endpoint<SslOrderView>()({
    method: "POST",
    url: "/user/ssl/order/:id/cancel",
    access: "user",
    answer: SslOrderViewAnswer,
    summary: "cancels my issue that has not ended",
    params: SslIdParams,
  }),
} as const;
