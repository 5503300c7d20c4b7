import { z } from "zod";
import { optionalInt, optionalText, PageQuery } from "./common";

/**
 * Affiliate programme (推广返利): every customer has an invite code; a customer who signed up
 * through it is their invitee. Each paid plan (2), traffic-pack (3) or renewal (4) order of an
 * invitee that was applied earns the inviter a rebate of the configured rate, pending for the
 * holding period, then available; available rebate is withdrawn to the balance (at once) or to an
 * Alipay account / bank card (paid out by an operator). All amounts are integer fen.
 */

/** A rebate's state: pending (holding period), available (released), reversed (refunded while pending). */
export const RebateState = { Pending: 1, Available: 2, Reversed: 3 } as const;
export const RebateStateLabel: Record<number, string> = { 1: "待结算", 2: "已到账", 3: "已冲回" };

/** Withdrawal status, SPEC §4: 1 done, 2 processing, 3 rejected (same values as ProcessStatus). */
export const WithdrawalStatus = { Done: 1, Processing: 2, Rejected: 3 } as const;
export const WithdrawalStatusLabel: Record<number, string> = { 1: "已完成", 2: "处理中", 3: "已驳回" };

/** Where a withdrawal goes: the customer's balance (at once) or an external account (by hand). */
export const WithdrawMethods = ["balance", "alipay", "bank"] as const;
export type WithdrawMethod = (typeof WithdrawMethods)[number];
export const WithdrawMethodLabel: Record<WithdrawMethod, string> = {
  balance: "提现到余额",
  alipay: "支付宝",
  bank: "银行卡",
};

/** The invite link's path; the web app puts its own origin in front. */
export const invitePath = (code: string): string => `/reg?invite=${encodeURIComponent(code)}`;

/** The operator's settings of the programme. */
export interface AffSetting {
  /** rebate rate in basis points (1000 = 10 %) */
  rate_bp: number;
  /** days a rebate stays pending before it can be withdrawn */
  hold_days: number;
  /** smallest withdrawal, fen */
  min_withdraw: number;
}

/** PATCH /super/aff/setting */
export const AffSettingBody = z.object({
  rate_bp: z.number().int("返利比例最多两位小数").min(0, "返利比例不能为负").max(5000, "返利比例最多 50%"),
  hold_days: z.number().int("结算期应为整数天").min(0, "结算期不能为负").max(365, "结算期最多 365 天"),
  min_withdraw: z.number().int("最低提现金额应为整数分").min(1, "最低提现金额至少 0.01 元").max(100_000_000),
});
export type AffSettingBody = z.infer<typeof AffSettingBody>;

/** One day of the 30-day chart (Asia/Shanghai days). */
export interface AffDay {
  date: string;
  /** rebate earned by orders paid that day, fen (reversals not subtracted) */
  rebate: number;
  /** invitees who signed up that day */
  invited: number;
}

/** GET /user/aff: the caller's invite code and totals. */
export interface AffSummary {
  invite_code: string;
  /** `/reg?invite=CODE`, relative: the web app adds its origin */
  invite_path: string;
  invited_count: number;
  /** paid orders (any type, refunded ones included) of the caller's invitees */
  paid_orders: number;
  /** rebate still in its holding period, fen */
  pending: number;
  /** rebate that can be withdrawn now (released − withdrawn − processing); negative after a refund of a released rebate */
  available: number;
  /** rebate paid out (withdrawals done), fen */
  withdrawn: number;
  /** external withdrawals waiting for the operator, fen */
  processing: number;
  /** whether an external withdrawal is waiting (only one at a time) */
  external_processing: boolean;
  /** of `pending`, fen whose holding period is over but whose invitee has not verified their identity yet */
  waiting_verification: number;
  /**
   * the caller's verified name, masked (`张*`), or null while not verified: external withdrawals
   * need a done verification and a payee name matching it
   */
  verified_name: string | null;
  setting: AffSetting;
  /** the last 30 days, oldest first */
  days: AffDay[];
}

/** GET /user/aff/rebate: one rebate row. */
export interface RebateRow {
  id: number;
  /** the order that earned it */
  trade_id: string;
  /** OrderType of that order */
  order_type: number;
  /** what the invitee paid, fen */
  order_amount: number;
  /** the invitee, masked (`138****0000`) */
  invitee: string;
  rate_bp: number;
  /** rebate at payment, fen */
  amount: number;
  /** taken back by a refund, fen */
  reversed: number;
  state: number;
  release_at: string;
  released_at: string | null;
  created_at: string;
  /** why a pending rebate is not released yet beyond its holding period (the invitee's verification), or null */
  pending_reason: string | null;
}

export const RebateQuery = PageQuery.extend({ state: optionalInt(1, 3) });
export type RebateQuery = z.infer<typeof RebateQuery>;

/** One withdrawal request (customer view). */
export interface WithdrawalRow {
  id: number;
  amount: number;
  method: WithdrawMethod;
  /** external account (Alipay account or card number), masked for the customer */
  account: string | null;
  account_name: string | null;
  bank_name: string | null;
  /** WithdrawalStatus: 1 done, 2 processing, 3 rejected */
  status: number;
  payout_ref: string | null;
  reason: string | null;
  created_at: string;
  handled_at: string | null;
}

/**
 * What links an inviter to the invitees whose orders earned their rebates (self-referral):
 * phone numbers of the same block (first 7 digits), a sign-in from the same device (IP address
 * and browser), an invitee's order placed from an address the inviter used, the same verified
 * identity (ID-number hash, now or when a rebate was released).
 */
export const WithdrawalSignalKinds = ["phone_prefix", "device", "payer", "id_hash"] as const;
export type WithdrawalSignalKind = (typeof WithdrawalSignalKinds)[number];
export const WithdrawalSignalLabel: Record<WithdrawalSignalKind, string> = {
  phone_prefix: "手机号段相同",
  device: "同一设备登录",
  payer: "同一付款人",
  id_hash: "实名身份相同",
};
export interface WithdrawalSignal {
  kind: WithdrawalSignalKind;
  /** which invitee, and what matched */
  detail: string;
}

/** How a payee name is compared with the verified name (see AdminWithdrawalRow.name_check). */
export type PayeeNameCheck = "exact" | "masked";

/** One withdrawal request as the operator sees it (full account, who asked). */
export interface AdminWithdrawalRow extends WithdrawalRow {
  uid: number;
  phone: string;
  /** the customer's available rebate now, fen (may be negative) */
  available: number;
  operator_uid: number | null;
  /** the customer's verified name, masked, or null while not verified */
  verified_name: string | null;
  /** for an external request: whether its payee name matches the verified name */
  name_matches: boolean | null;
  /**
   * how that was decided: "exact", the full verified name (its keyed hash); "masked", only the
   * first character and the length, for a verification done before full names were hashed (weaker)
   */
  name_check: PayeeNameCheck | null;
  /** self-referral signals between the customer and their rebated invitees */
  signals: WithdrawalSignal[];
}

export const WithdrawalQuery = PageQuery.extend({ status: optionalInt(1, 3) });
export type WithdrawalQuery = z.infer<typeof WithdrawalQuery>;

export const AdminWithdrawalQuery = PageQuery.extend({
  status: optionalInt(1, 3),
  uid: optionalInt(1),
  method: z.preprocess((v) => (v === "" ? undefined : v), z.enum(WithdrawMethods).optional()),
  id: optionalInt(1),
  account: optionalText(64),
});
export type AdminWithdrawalQuery = z.infer<typeof AdminWithdrawalQuery>;

const realName = z
  .string()
  .trim()
  .min(2, "收款人姓名至少 2 个字")
  .max(32, "收款人姓名最多 32 个字")
  .regex(/^[\u3400-\u9fffA-Za-z·• ]+$/u, "收款人姓名应为真实姓名");

/** POST /user/aff/withdraw */
export const WithdrawBody = z
  .object({
    amount: z.number().int("金额应为整数分").min(1, "提现金额应大于 0").max(100_000_000, "提现金额过大"),
    method: z.enum(WithdrawMethods, { message: "请选择提现方式" }),
    account: z.string().trim().max(64, "账号最多 64 个字符").optional(),
    account_name: realName.optional(),
    bank_name: z.string().trim().max(64, "开户行最多 64 个字符").optional(),
  })
  .superRefine((b, ctx) => {
    if (b.method === "balance") return;
    if (!b.account_name) ctx.addIssue({ code: "custom", path: ["account_name"], message: "请输入收款人姓名" });
    if (b.method === "alipay") {
      const ok = !!b.account && (/^1[3-9]\d{9}$/.test(b.account) || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(b.account));
      if (!ok) ctx.addIssue({ code: "custom", path: ["account"], message: "支付宝账号应为手机号或邮箱" });
    } else {
      if (!b.account || !/^\d{12,19}$/.test(b.account.replace(/\s/g, "")))
        ctx.addIssue({ code: "custom", path: ["account"], message: "银行卡号应为 12 到 19 位数字" });
      if (!b.bank_name) ctx.addIssue({ code: "custom", path: ["bank_name"], message: "请输入开户行" });
    }
  });
export type WithdrawBody = z.infer<typeof WithdrawBody>;

/** POST /super/aff/approve: approve (paid out by hand; the payout reference) or reject (with a reason). */
export const AffApproveBody = z
  .object({
    id: z.number().int().min(1),
    action: z.enum(["approve", "reject"]),
    payout_ref: z.string().trim().max(100, "付款流水号最多 100 个字符").optional(),
    reason: z.string().trim().max(200, "原因最多 200 个字").optional(),
  })
  .superRefine((b, ctx) => {
    if (b.action === "approve" && !b.payout_ref)
      ctx.addIssue({ code: "custom", path: ["payout_ref"], message: "请输入付款流水号" });
    if (b.action === "reject" && !b.reason)
      ctx.addIssue({ code: "custom", path: ["reason"], message: "驳回时请输入原因" });
  });
export type AffApproveBody = z.infer<typeof AffApproveBody>;
