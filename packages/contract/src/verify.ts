import { z } from "zod";
import { PageQuery } from "./common";

/**
 * Identity verification (实名认证): a real name and a Chinese resident ID number (GB 11643-1999).
 * The number is checked here, on both sides, before any provider sees it; statuses are SPEC §4
 * (ProcessStatus: 1 done, 2 processing, 3 rejected; 0 never submitted).
 */

/** GB/T 2260 province-level codes (the first two digits of a resident ID number). */
export const ID_PROVINCE_CODES = new Set([
  "11",
  "12",
  "13",
  "14",
  "15",
  "21",
  "22",
  "23",
  "31",
  "32",
  "33",
  "34",
  "35",
  "36",
  "37",
  "41",
  "42",
  "43",
  "44",
  "45",
  "46",
  "50",
  "51",
  "52",
  "53",
  "54",
  "61",
  "62",
  "63",
  "64",
  "65",
  "71",
  "81",
  "82",
  "83",
]);

const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const CHECK = "10X98765432";

/** The GB 11643 check character of the first 17 digits. */
export function idCheckDigit(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * WEIGHTS[i];
  return CHECK[sum % 11];
}

/**
 * What is wrong with a resident ID number, in words a customer understands, or null when it is
 * well formed: 18 characters (17 digits and a digit or X), a province code, a real birth date
 * between 1900-01-01 and today (Asia/Shanghai is close enough: a day's slack is harmless), and
 * the check digit.
 */
export function idNumberProblem(raw: string, today: Date = new Date()): string | null {
  const id = raw.trim().toUpperCase();
  if (id.length !== 18) return `身份证号码应为 18 位，当前为 ${id.length} 位`;
  if (!/^\d{17}[\dX]$/.test(id)) return "身份证号码前 17 位应为数字，最后一位为数字或 X";
  if (!ID_PROVINCE_CODES.has(id.slice(0, 2))) return `身份证号码的地区码 ${id.slice(0, 2)} 不是有效的省份代码`;
  const y = Number(id.slice(6, 10));
  const m = Number(id.slice(10, 12));
  const d = Number(id.slice(12, 14));
  const birth = new Date(Date.UTC(y, m - 1, d));
  if (birth.getUTCFullYear() !== y || birth.getUTCMonth() !== m - 1 || birth.getUTCDate() !== d)
    return `身份证号码中的出生日期 ${id.slice(6, 14)} 不是有效日期`;
  if (y < 1900) return "身份证号码中的出生日期早于 1900 年";
  if (birth.getTime() > today.getTime()) return "身份证号码中的出生日期晚于今天";
  if (idCheckDigit(id) !== id[17]) return "身份证号码校验位不正确，请检查是否输错";
  return null;
}

/** `张三` → `张*`, `欧阳娜娜` → `欧***`: the first character only. */
export const maskName = (name: string): string => {
  const chars = [...name];
  return chars.length <= 1 ? "*" : `${chars[0]}${"*".repeat(chars.length - 1)}`;
};

/** `110101199003071234` → `1101**********1234`. */
export const maskIdNumber = (id: string): string => `${id.slice(0, 4)}${"*".repeat(id.length - 8)}${id.slice(-4)}`;

/** POST /user/verify */
export const VerifyBody = z.object({
  real_name: z
    .string()
    .trim()
    .min(2, "姓名至少 2 个字")
    .max(32, "姓名最多 32 个字")
    .regex(/^[\u3400-\u9fff·•]+$/u, "姓名应为身份证上的中文姓名"),
  id_number: z
    .string()
    .trim()
    .transform((v) => v.toUpperCase())
    .superRefine((v, ctx) => {
      const problem = idNumberProblem(v);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
});
export type VerifyBody = z.infer<typeof VerifyBody>;

/**
 * How this console verifies (VERIFY_PROVIDER): "redirect" (a provider's page), "manual" (an
 * operator reviews photos of the ID card) or "sandbox" (development: decided from the name, or
 * reviewed by an operator when photos are given).
 */
export type VerifyMode = "sandbox" | "manual" | "redirect";

/** The photos a manual review takes, as multipart file fields of POST /user/verify/review. */
export const VERIFY_PHOTO_KINDS = ["id_front", "id_back", "id_hand"] as const;
export type VerifyPhotoKind = (typeof VERIFY_PHOTO_KINDS)[number];
/** Front and back are required; the hand-held photo is optional. */
export const VERIFY_PHOTO_REQUIRED: readonly VerifyPhotoKind[] = ["id_front", "id_back"];
export const VERIFY_PHOTO_LABELS: Record<VerifyPhotoKind, string> = {
  id_front: "身份证人像面",
  id_back: "身份证国徽面",
  id_hand: "手持身份证照片",
};
/** Largest photo accepted (png, jpg or webp, told by its bytes). */
export const VERIFY_PHOTO_MAX_BYTES = 5 * 1024 * 1024;
/** How long a redirect provider's unfinished request holds the number against other accounts. */
export const VERIFY_REDIRECT_HOLD_MINUTES = 30;
/** Days an undecided manual review keeps its photos; then it is rejected and they are deleted. */
export const VERIFY_EVIDENCE_DAYS = 14;

/** POST /user/verify/review (multipart): the text fields beside the photos. */
export const VerifyReviewFields = VerifyBody;

/** GET /user/verify, GET /user/verify/result: the caller's verification, masked. */
export interface VerifyState {
  /** 0 never submitted, 1 done, 2 processing, 3 rejected */
  status: number;
  /** masked (`张*`) */
  real_name: string | null;
  /** masked (`1101**********1234`); the full number is never returned */
  id_number: string | null;
  /** why it was rejected */
  reason: string | null;
  updated_at: string | null;
  /** whether creating a tunnel needs a done verification (a site setting) */
  required_for_tunnels: boolean;
  /** how this console verifies: "manual" asks for photos of the ID card */
  mode: VerifyMode;
}

/** POST /user/verify → data */
export interface VerifyStartResult extends VerifyState {
  /** the provider's page to send the browser to (redirect provider); null when decided already */
  redirect_url: string | null;
}

/** Another account's current claim (processing or done) of the same ID number. */
export interface ContestedClaim {
  uid: number;
  /** that account's request's status; 0 for a submission refused because this number was held */
  status: number;
  provider: string;
  /** when that account's submission of the number was refused (409) because of this claim, else null */
  refused_at: string | null;
}

/** GET /super/user/verify?uid */
export interface AdminVerifyView extends Omit<VerifyState, "required_for_tunnels" | "mode"> {
  uid: number;
  provider: string | null;
  created_at: string | null;
  /** until when a redirect request holds the number against other accounts (null: not held, or held as done) */
  held_until: string | null;
  /** other accounts claiming the same number: the operator must find out whose it is */
  contested: ContestedClaim[];
  /** photos kept for a manual review (kinds only; GET /super/user/verify/review shows them), or null */
  evidence: { photos: VerifyPhotoKind[]; expires_at: string } | null;
}

/** GET /super/user/verify/review?uid: what the reviewer decides on, unmasked (each call audited). */
export interface AdminVerifyReview {
  uid: number;
  real_name: string;
  id_number: string;
  photos: { kind: VerifyPhotoKind; mime: string; size: number }[];
  created_at: string;
  expires_at: string;
  /**
   * The submission this answer shows: POST /super/user/verify must carry it to approve (and may
   * to reject), so a decision never applies to a submission made after the reviewer looked.
   */
  version: string;
}

/** What a review's version looks like (hex). */
const ReviewVersion = z
  .string()
  .trim()
  .regex(/^[0-9a-f]{16,64}$/, "审核版本格式不正确");

/** GET /super/user/verify/photo?uid&kind: one photo of a manual review (audited). */
export const VerifyPhotoQuery = z.object({
  uid: z.coerce.number().int().min(1),
  kind: z.enum(VERIFY_PHOTO_KINDS),
  /** the review's version: a photo of a later submission is refused (409) */
  version: ReviewVersion.optional(),
});
export type VerifyPhotoQuery = z.infer<typeof VerifyPhotoQuery>;

/** GET /super/verify/queue: the requests waiting for a decision, oldest first. */
export const VerifyQueueQuery = PageQuery.extend({
  /** "1": only numbers another account claims too */
  contested: z.preprocess((v) => (v === "" || v === undefined ? undefined : v), z.enum(["0", "1"]).optional()),
});
export type VerifyQueueQuery = z.infer<typeof VerifyQueueQuery>;

export interface VerifyQueueRow {
  uid: number;
  nickname: string;
  phone: string;
  real_name: string;
  id_number: string;
  provider: string;
  /** photos are kept for review */
  evidence: boolean;
  /** how many other accounts claim the same number (processing or done) */
  contested: number;
  held_until: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * POST /super/user/verify: an operator approves a processing request, rejects with a reason, or
 * resets. `version` (from GET /super/user/verify/review) is required to approve a manual review
 * and checked when given: a decision on a submission the reviewer has not seen is refused (409).
 */
export const AdminVerifyBody = z
  .object({
    uid: z.number().int().min(1),
    action: z.enum(["approve", "reject", "reset"]),
    reason: z.string().trim().max(200).optional(),
    version: ReviewVersion.optional(),
  })
  .superRefine((b, ctx) => {
    if (b.action === "reject" && !b.reason)
      ctx.addIssue({ code: "custom", path: ["reason"], message: "驳回时请输入原因" });
  });
export type AdminVerifyBody = z.infer<typeof AdminVerifyBody>;

/** GET/PATCH /super/verify/setting */
export const VerifySetting = z.object({ required_for_tunnels: z.boolean() });
export type VerifySetting = z.infer<typeof VerifySetting>;
