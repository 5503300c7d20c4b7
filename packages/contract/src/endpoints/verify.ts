import { endpoint } from "../endpoint";
import { UidQuery } from "../users";
import {
  AdminVerifyBody,
  type AdminVerifyView,
  VerifyBody,
  VerifySetting,
  type VerifyStartResult,
  type VerifyState,
} from "../verify";

/** The identity verification endpoints (see endpoint.ts). */
export const VerifyApi = {
  getUserVerify: endpoint<VerifyState>()({
    method: "GET",
    url: "/user/verify",
    access: "user",
    summary: "the caller's identity verification, masked",
  }),
  postUserVerify: endpoint<VerifyStartResult>()({
    method: "POST",
    url: "/user/verify",
    access: "user",
    summary: "submit real name and resident ID number (checked locally, then by the provider)",
    body: VerifyBody,
  }),
  getUserVerifyResult: endpoint<VerifyState>()({
    method: "GET",
    url: "/user/verify/result",
    access: "user",
    summary: "the verification's result after the provider's page (done, processing, rejected)",
  }),
  getVerifyReturn: endpoint<null>()({
    method: "GET",
    url: "/verify/return",
    access: "public",
    summary: "the verification provider sends the browser back here (signed); redirects to /account/verify/{result}",
    raw: "redirect",
  }),
  postVerifyNotify: endpoint<null>()({
    method: "POST",
    url: "/verify/notify",
    access: "public",
    summary: "the verification provider's signed asynchronous result (form body); answers plain text success/fail",
    raw: "text",
  }),
  getSuperUserVerify: endpoint<AdminVerifyView>()({
    method: "GET",
    url: "/super/user/verify",
    access: "staff",
    summary: "a user's identity verification, masked",
    query: UidQuery,
  }),
  postSuperUserVerify: endpoint<AdminVerifyView>()({
    method: "POST",
    url: "/super/user/verify",
    access: "manager",
    summary: "approve, reject (with a reason) or reset a user's verification",
    body: AdminVerifyBody,
  }),
  getSuperVerifySetting: endpoint<VerifySetting>()({
    method: "GET",
    url: "/super/verify/setting",
    access: "staff",
    summary: "whether creating a tunnel requires a done verification",
  }),
  patchSuperVerifySetting: endpoint<VerifySetting>()({
    method: "PATCH",
    url: "/super/verify/setting",
    access: "manager",
    summary: "turn the verification requirement for tunnel creation on or off",
    body: VerifySetting,
  }),
} as const;
