import { pagedAnswer } from "../answers";
import {
  AdminVerifyReviewAnswer,
  AdminVerifyViewAnswer,
  VerifyQueueRowAnswer,
  VerifySettingAnswer,
  VerifyStartResultAnswer,
  VerifyStateAnswer,
} from "../answers/verify";
import type { Paged } from "../codes";
import { endpoint } from "../endpoint";
import { UidQuery } from "../users";
import {
  AdminVerifyBody,
  type AdminVerifyReview,
  type AdminVerifyView,
  VerifyBody,
  VerifyPhotoQuery,
  VerifyQueueQuery,
  type VerifyQueueRow,
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
    answer: VerifyStateAnswer,
    summary: "the caller's identity verification, masked",
  }),
  postUserVerify: endpoint<VerifyStartResult>()({
    method: "POST",
    url: "/user/verify",
    access: "user",
    answer: VerifyStartResultAnswer,
    summary: "submit real name and resident ID number (checked locally, then by the provider)",
    body: VerifyBody,
  }),
  postUserVerifyReview: endpoint<VerifyStartResult>()({
    method: "POST",
    url: "/user/verify/review",
    access: "user",
    answer: VerifyStartResultAnswer,
    summary:
      'submit real name, ID number and photos for an operator review (multipart: real_name, id_number, files "id_front", "id_back", optional "id_hand"; png, jpg or webp, at most 5 MB each)',
    raw: "multipart",
  }),
  getUserVerifyResult: endpoint<VerifyState>()({
    method: "GET",
    url: "/user/verify/result",
    access: "user",
    answer: VerifyStateAnswer,
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
    answer: AdminVerifyViewAnswer,
    summary: "a user's identity verification, masked",
    query: UidQuery,
  }),
  getSuperUserVerifyReview: endpoint<AdminVerifyReview>()({
    method: "GET",
    url: "/super/user/verify/review",
    access: "manager",
    answer: AdminVerifyReviewAnswer,
    summary: "a manual review's full name, ID number, photo list and version, for the deciding Manager (audited)",
    query: UidQuery,
  }),
  getSuperUserVerifyPhoto: endpoint<null>()({
    method: "GET",
    url: "/super/user/verify/photo",
    access: "manager",
    summary: "one photo of a manual review, decrypted, for the deciding Manager (audited)",
    query: VerifyPhotoQuery,
    raw: "file",
  }),
  getSuperVerifyQueue: endpoint<Paged<VerifyQueueRow>>()({
    method: "GET",
    url: "/super/verify/queue",
    access: "staff",
    answer: pagedAnswer(VerifyQueueRowAnswer),
    summary: "verifications waiting for a decision, oldest first, with the numbers other accounts claim too",
    query: VerifyQueueQuery,
  }),
  postSuperUserVerify: endpoint<AdminVerifyView>()({
    method: "POST",
    url: "/super/user/verify",
    access: "manager",
    answer: AdminVerifyViewAnswer,
    summary:
      "approve, reject (with a reason) or reset a user's verification; approving a manual review needs the review's version",
    body: AdminVerifyBody,
  }),
  getSuperVerifySetting: endpoint<VerifySetting>()({
    method: "GET",
    url: "/super/verify/setting",
    access: "staff",
    answer: VerifySettingAnswer,
    summary: "whether creating a tunnel requires a done verification",
  }),
  patchSuperVerifySetting: endpoint<VerifySetting>()({
    method: "PATCH",
    url: "/super/verify/setting",
    access: "manager",
    answer: VerifySettingAnswer,
    summary: "turn the verification requirement for tunnel creation on or off",
    body: VerifySetting,
  }),
} as const;
