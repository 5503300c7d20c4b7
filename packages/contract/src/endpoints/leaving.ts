import { z } from "zod";
import { pagedAnswer } from "../answers";
import { PasskeyOptionsAnswer } from "../answers/auth";
import { AdminDeletionRowAnswer, DeletionPrecheckAnswer, DeletionViewAnswer } from "../answers/leaving";
import type { Paged } from "../codes";
import { endpoint } from "../endpoint";
import {
  AdminDeletionQuery,
  type AdminDeletionRow,
  type DeletionPrecheck,
  type DeletionView,
  RequestDeletionBody,
} from "../leaving";
import type { PasskeyOptions } from "../passkeys";

/**
 * Leaving (docs/leaving.md): the data export and the account's deletion. Console sessions only (no
 * token scope): a token can neither download the whole account nor delete it.
 */
export const LeavingApi = {
  getUserLeavingExport: endpoint<null>()({
    method: "GET",
    url: "/user/leaving/export",
    access: "user",
    summary: "downloads the customer's data as JSON (needs a sign-in of the last 15 minutes; 3 an hour)",
    raw: "file",
  }),
  getUserLeaving: endpoint<DeletionView | null>()({
    method: "GET",
    url: "/user/leaving",
    access: "user",
    answer: DeletionViewAnswer.nullable(),
    summary: "the customer's pending deletion (the banner), or null",
  }),
  getUserLeavingPrecheck: endpoint<DeletionPrecheck>()({
    method: "GET",
    url: "/user/leaving/precheck",
    access: "user",
    answer: DeletionPrecheckAnswer,
    summary: "what the deletion form must ask: money left to forfeit, whether a second factor is needed",
  }),
  postUserLeavingPasskeyOptions: endpoint<PasskeyOptions>()({
    method: "POST",
    url: "/user/leaving/passkey/options",
    access: "user",
    answer: PasskeyOptionsAnswer,
    summary: "a passkey challenge confirming the deletion (bound to this session; the account's passkeys allowed)",
  }),
  postUserLeaving: endpoint<DeletionView>()({
    method: "POST",
    url: "/user/leaving",
    access: "user",
    answer: DeletionViewAnswer,
    summary: "asks for the account's deletion (password, second factor, confirmation): tunnels stop, erasure in 7 days",
    body: RequestDeletionBody,
  }),
  deleteUserLeaving: endpoint<null>()({
    method: "DELETE",
    url: "/user/leaving",
    access: "user",
    answer: z.null(),
    summary: "cancels the pending deletion: the tunnels it stopped run again",
  }),
  getSuperLeaving: endpoint<Paged<AdminDeletionRow>>()({
    method: "GET",
    url: "/super/leaving",
    access: "staff",
    answer: pagedAnswer(AdminDeletionRowAnswer),
    summary: "account deletions, pending and done (uid, asked at, executes at)",
    query: AdminDeletionQuery,
  }),
} as const;
