import type { AffSetting } from "./affiliate";
import type { VerifyMode } from "./verify";

/** How identity verification is done, as people read it (VERIFY_PROVIDER; also a request's provider). */
export const VerifyModeLabel: Record<VerifyMode, string> = {
  sandbox: "沙箱（开发测试，不核验身份）",
  manual: "人工审核",
  redirect: "第三方认证",
};

/** The payment gateway in force (PAY_GATEWAY / EPAY_*). */
export type PayGatewayKind = "epay" | "sandbox";
export const PayGatewayLabel: Record<PayGatewayKind, string> = {
  epay: "易支付",
  sandbox: "沙箱支付（不收款，任何订单都可免费支付）",
};

/** How verification codes are sent (SMS_DRIVER). */
export type SmsDriverKind = "console" | "http";
export const SmsDriverLabel: Record<SmsDriverKind, string> = {
  console: "仅打印在服务器日志（用户收不到短信）",
  http: "短信网关（HTTP）",
};

/**
 * GET /super/settings: every site-wide setting on one page. The verification requirement and the
 * affiliate programme are changed here (PATCH /super/verify/setting, PATCH /super/aff/setting);
 * the rest comes from the server's environment and names its variables.
 */
export interface SiteSettings {
  verify: {
    /** creating a tunnel requires a done verification (changeable; VERIFY_REQUIRED_FOR_TUNNELS until first changed) */
    required_for_tunnels: boolean;
    /** the verification channel (VERIFY_PROVIDER) */
    mode: VerifyMode;
  };
  affiliate: AffSetting;
  assistant: {
    /** an AI endpoint is configured (AI_BASE_URL, AI_MODEL); else only the offline log explanations work */
    configured: boolean;
    model: string | null;
    /** questions per customer and day (AI_DAILY_LIMIT) */
    daily_limit: number;
    /** seconds one answer may take (AI_TIMEOUT) */
    timeout_sec: number;
  };
  defaults: {
    /** the plan every new customer gets (a plan marked default), null when none */
    default_plan: { id: number; name: string } | null;
    /** the daily check-in bonus range, MB (CHECKIN_MIN_MB, CHECKIN_MAX_MB) */
    checkin_min_mb: number;
    checkin_max_mb: number;
    /** hours a domain stays reserved after its tunnel is gone (DOMAIN_GRACE_HOURS) */
    domain_grace_hours: number;
    /** seconds a sign-in lasts (JWT_TTL) */
    session_ttl_sec: number;
  };
  security: {
    /** Managers and support staff must sign in with a second factor (STAFF_MFA_REQUIRED) */
    staff_mfa_required: boolean;
    /** the TOTP secrets' key comes from the environment (MFA_SECRET_KEY); else kept in settings (not in production) */
    mfa_key_configured: boolean;
  };
  site: {
    /** PUBLIC_URL, null when unset */
    public_url: string | null;
    payment: PayGatewayKind;
    sms: SmsDriverKind;
  };
}
