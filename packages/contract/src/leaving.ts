import { z } from "zod";
import { PageQuery } from "./common";
import { WebAuthnCredentialJson } from "./passkeys";

/*
 * Leaving (issue 34 §6, docs/leaving.md): the customer's data export and the deletion of the
 * account after a cool-off.
 */

/** Days between the customer's request and the erasure of their personal data. */
export const DELETION_COOL_OFF_DAYS = 7;
/** What the customer types to confirm the deletion (the form shows it). */
export const DELETION_CONFIRM_TEXT = "注销账号";
/** Data exports a customer may download per hour. */
export const EXPORTS_PER_HOUR = 3;
/** An export needs a sign-in at most this many minutes old (docs/leaving.md). */
export const EXPORT_SIGN_IN_MINUTES = 15;

export const DeletionStatus = { Pending: "pending", Cancelled: "cancelled", Done: "done" } as const;
export type DeletionStatus = (typeof DeletionStatus)[keyof typeof DeletionStatus];
export const DeletionStatusLabel: Record<DeletionStatus, string> = {
  pending: "冷静期中",
  cancelled: "已撤销",
  done: "已注销",
};

export const RequestDeletionBody = z.object({
  password: z.string().min(1, "请输入登录密码").max(128),
  /** the second factor's code, when the account has TOTP */
  code: z.string().trim().max(32).optional(),
  /** or the browser's answer to POST /user/leaving/passkey/options, when the account has a passkey */
  credential: WebAuthnCredentialJson.optional(),
  /** must equal DELETION_CONFIRM_TEXT */
  confirm: z
    .string()
    .trim()
    .refine((s) => s === DELETION_CONFIRM_TEXT, `请输入“${DELETION_CONFIRM_TEXT}”以确认`),
  /** the customer gives up the balance and affiliate earnings left (refused while positive without it) */
  forfeit: z.boolean().default(false),
});
export type RequestDeletionBody = z.infer<typeof RequestDeletionBody>;

/** The customer's own deletion state: null when none is pending. */
export interface DeletionView {
  status: DeletionStatus;
  requested_at: string;
  /** when the personal data is erased */
  executes_at: string;
  /** fen the customer agreed to forfeit (balance + affiliate earnings) */
  forfeit_fen: number;
}

/** What stands between the customer and a deletion request (the form shows it before asking). */
export interface DeletionPrecheck {
  balance: number;
  affiliate_available: number;
  /** a TOTP (or recovery) code confirms the request */
  totp: boolean;
  /** one of the account's passkeys confirms the request (instead of a code, or alone when it has no TOTP) */
  passkey: boolean;
}

export const AdminDeletionQuery = PageQuery.extend({
  status: z.enum(["pending", "cancelled", "done"]).optional(),
});
export type AdminDeletionQuery = z.infer<typeof AdminDeletionQuery>;

export interface AdminDeletionRow {
  id: number;
  uid: number;
  status: DeletionStatus;
  requested_at: string;
  executes_at: string;
  cancelled_at: string | null;
  erased_at: string | null;
  forfeit_fen: number;
}
