import { z } from "zod";
import { int, time } from "../answers";
import { VERIFY_PHOTO_KINDS } from "../verify";

/** Answers of the real-name verification endpoints (issue 34 §2; see answers.ts). */

const status = () => int().describe("0 never submitted, 1 done, 2 processing, 3 rejected");
const shown = {
  status: status(),
  real_name: z.string().nullable().describe("masked (张*)"),
  id_number: z.string().nullable().describe("masked; the full number is never returned"),
  reason: z.string().nullable().describe("why it was rejected"),
  updated_at: time().nullable(),
};

export const VerifyStateAnswer = z.strictObject({
  ...shown,
  required_for_tunnels: z.boolean(),
  mode: z.enum(["sandbox", "manual", "redirect"]),
});

export const VerifyStartResultAnswer = VerifyStateAnswer.extend({
  redirect_url: z.string().nullable().describe("the provider's page to send the browser to; null when decided"),
});

export const AdminVerifyViewAnswer = z.strictObject({
  ...shown,
  uid: int(),
  provider: z.string().nullable(),
  created_at: time().nullable(),
  held_until: time().nullable(),
  contested: z.array(
    z.strictObject({
      uid: int(),
      status: status(),
      provider: z.string(),
      refused_at: time().nullable(),
    }),
  ),
  evidence: z.strictObject({ photos: z.array(z.enum(VERIFY_PHOTO_KINDS)), expires_at: time() }).nullable(),
});

export const AdminVerifyReviewAnswer = z.strictObject({
  uid: int(),
  real_name: z.string(),
  id_number: z.string(),
  photos: z.array(
    z.strictObject({ kind: z.enum(VERIFY_PHOTO_KINDS), mime: z.string(), size: int().describe("bytes") }),
  ),
  created_at: time(),
  expires_at: time(),
  version: z.string().describe("the submission shown: POST /super/user/verify carries it"),
});

export const VerifyQueueRowAnswer = z.strictObject({
  uid: int(),
  nickname: z.string(),
  phone: z.string(),
  real_name: z.string(),
  id_number: z.string(),
  provider: z.string(),
  evidence: z.boolean().describe("photos are kept for review"),
  contested: int().describe("other accounts claiming the same number"),
  held_until: time().nullable(),
  created_at: time(),
  updated_at: time(),
});

export const VerifySettingAnswer = z.strictObject({ required_for_tunnels: z.boolean() });
