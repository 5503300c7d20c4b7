import { z } from "zod";
import { optionalInt, optionalText, PageQuery, Password, Phone, SmsCode } from "./common";

/** GET /user/userInfo → data */
export interface UserInfo {
  uid: number;
  role: number;
  status: number;
  nickname: string;
  balance: number;
  invite_code: string;
  frp_token: string;
  /** 0 never, 1 verified, 2 processing, 3 rejected */
  verify_status: number;
  real_name: string | null;
  created_at: string;
  /** phone_number is "" while false (an account created by a third-party sign-in, before it binds one) */
  personal_info: { avatar: string; phone_number: string };
  /** false for an account created by a third-party sign-in that has not bound a phone yet */
  phone_bound: boolean;
  /** whether the account has a password (third-party accounts may have none) */
  has_password: boolean;
}

/** The path POST /user/avatar returns, exactly: /api/uploads/avatars/<uid>-<16 hex>.<ext> (group 1: uid). */
export const AVATAR_PATH = /^\/api\/uploads\/avatars\/([1-9]\d{0,15})-[0-9a-f]{16}\.(png|jpg|webp|gif)$/;

export const UpdateInfoBody = z.object({
  nickname: z.string().trim().min(1, "请输入昵称").max(32, "昵称最多 32 个字符").optional(),
  /** an avatar URL previously returned by POST /user/avatar, or "" for none */
  avatar: z
    .string()
    .trim()
    .max(300)
    .refine((v) => v === "" || AVATAR_PATH.test(v), "头像地址无效，请重新上传")
    .optional(),
});
export type UpdateInfoBody = z.infer<typeof UpdateInfoBody>;

export const ChangePasswordBody = z.object({ old_password: z.string().min(1).max(64), password: Password });
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

export const ChangePhoneBody = z.object({ phone: Phone, code: SmsCode });
export type ChangePhoneBody = z.infer<typeof ChangePhoneBody>;

export interface LoginLog {
  id: number;
  ip: string;
  user_agent: string;
  /** how the session was opened: password, register, sms (linking a provider by SMS) or oidc */
  method: string;
  /** the provider's display name when method is oidc (or sms while linking one) */
  provider: string | null;
  created_at: string;
}

/** GET /super/user/list query */
export const AdminUserListQuery = PageQuery.extend({
  phone: optionalText(20),
  uid: optionalInt(1),
  status: optionalInt(-1, 1),
  role: optionalInt(1, 3),
  /** registered on or after (YYYY-MM-DD, Asia/Shanghai) */
  start_date: optionalText(10),
  /** registered on or before (YYYY-MM-DD, Asia/Shanghai) */
  end_date: optionalText(10),
});
export type AdminUserListQuery = z.infer<typeof AdminUserListQuery>;

export interface AdminUserRow {
  uid: number;
  phone: string;
  nickname: string;
  role: number;
  status: number;
  balance: number;
  verify_status: number;
  ban_reason: string | null;
  created_at: string;
  last_login_at: string | null;
}

export interface BalanceLedgerRow {
  id: number;
  change: number;
  balance_before: number;
  balance_after: number;
  reason: string;
  order_id: string | null;
  created_at: string;
}

export interface AdminUserDetail extends AdminUserRow {
  avatar: string;
  invite_code: string;
  referrer_uid: number | null;
  real_name: string | null;
  ledger: BalanceLedgerRow[];
}

export const UidQuery = z.object({ uid: z.coerce.number().int().min(1) });
export const LoginListQuery = PageQuery.extend({ uid: z.coerce.number().int().min(1) });

/** PATCH /super/user/info */
export const AdminUpdateUserBody = z
  .object({
    uid: z.number().int().min(1),
    nickname: z.string().trim().min(1).max(32).optional(),
    role: z.union([z.literal(1), z.literal(2), z.literal(3)]).optional(),
    /** 1 active, -1 banned; banning requires ban_reason */
    status: z.union([z.literal(1), z.literal(-1)]).optional(),
    ban_reason: z.string().trim().max(200).optional(),
    /** balance change in fen, positive or negative, never 0 */
    balance_change: z
      .number()
      .int()
      .refine((v) => v !== 0, "调整金额不能为 0")
      .optional(),
    balance_reason: z.string().trim().min(1).max(200).optional(),
    password: Password.optional(),
  })
  .superRefine((b, ctx) => {
    if (b.status === -1 && !b.ban_reason)
      ctx.addIssue({ code: "custom", path: ["ban_reason"], message: "封禁时请输入封禁原因" });
    if (b.balance_change !== undefined && !b.balance_reason)
      ctx.addIssue({ code: "custom", path: ["balance_reason"], message: "调整余额时请输入原因" });
  });
export type AdminUpdateUserBody = z.infer<typeof AdminUpdateUserBody>;

/** GET /super/viewInfo */
export interface ViewInfo {
  users_total: number;
  users_today: number;
  users_banned: number;
  /** users whose identity is verified (0 until a verification module registers its counter) */
  users_verified: number;
  /** last 30 days, Asia/Shanghai dates */
  signups: { date: string; count: number }[];
  /** live tunnels (not deleted) and those connected now */
  tunnels: { total: number; online: number };
  /** nodes by status; attention lists the offline and exception ones */
  nodes: {
    online: number;
    offline: number;
    exception: number;
    off_shelf: number;
    attention: { node_id: number; name: string; status: number }[];
  };
  /** bytes, in + out, Asia/Shanghai today and this calendar month */
  traffic: { today: number; month: number };
  /** fen: revenue is paid non-recharge orders less refunds made in the period; recharge is deposits */
  revenue: { today: number; month: number; today_recharge: number; month_recharge: number };
  /** what waits for an operator (open tickets, pending verifications…); only modules that exist report */
  waiting: { key: string; label: string; path: string; count: number }[];
  /** last 30 days, oldest first: revenue (fen), recharge (fen), traffic (bytes), sign-ups */
  daily: { date: string; revenue: number; recharge: number; traffic: number; signups: number }[];
}

/** What the lines of the operator's set-up checklist check (GET /super/setup), in the order it shows them. */
export const SetupItemKeys = [
  "public_url",
  "node_online",
  "plan_on_sale",
  "downloads",
  "payment",
  "sms",
  "verify",
  "oidc",
] as const;
export type SetupItemKey = (typeof SetupItemKeys)[number];

/** One line of the set-up checklist: computed from the configuration and the database. */
export interface SetupItem {
  key: SetupItemKey;
  label: string;
  done: boolean;
  /** one sentence: what is in place, or what is missing and what that breaks */
  detail: string;
  /** where it is fixed: a console page (a path under /admin), or environment variables described in docs/deploy.md */
  fix: { page: string } | { env: string[]; doc: string };
  /** the console page that shows the value in force (a path under /admin), for lines fixed in the environment */
  shown_at?: string;
}

/** GET /super/setup: the set-up checklist; the overview shows it while `show`. */
export interface SetupChecklist {
  items: SetupItem[];
  /** every line done */
  done: boolean;
  /** an operator hid it before it was done (POST /super/setup) */
  dismissed: boolean;
  /** neither done nor dismissed */
  show: boolean;
}

export const SetupDismissBody = z.object({ dismissed: z.boolean() });
export type SetupDismissBody = z.infer<typeof SetupDismissBody>;
