import type { SiteSettings } from "@burrow/contract";
import { payGatewayKind } from "../../config";
import type { AppContext } from "../../context";
import { affSetting } from "../affiliate/affiliate.service";
import { provider as assistantProvider } from "../assistant/assistant.service";
import { findDefaultPlan } from "../subscriptions/default-plan";
import { providerKind } from "../verify/provider";
import { verifySetting } from "../verify/verify.service";

/**
 * Every site-wide setting, read where it lives: the owners' settings (verification requirement,
 * affiliate programme) and the configuration in force. Nothing is copied here; the page changes
 * the owners' settings through their own endpoints, which audit the change.
 */
export async function siteSettings(ctx: AppContext): Promise<SiteSettings> {
  const c = ctx.config;
  const [verify, affiliate, defaultPlan] = await Promise.all([
    verifySetting(ctx),
    affSetting(ctx.db),
    findDefaultPlan(ctx.db),
  ]);
  const ai = assistantProvider(ctx);
  return {
    verify: { required_for_tunnels: verify.required_for_tunnels, mode: providerKind(c) },
    affiliate,
    assistant: {
      configured: !!ai,
      model: ai?.model ?? null,
      daily_limit: c.AI_DAILY_LIMIT,
      timeout_sec: c.AI_TIMEOUT,
    },
    defaults: {
      default_plan: defaultPlan ? { id: defaultPlan.id, name: defaultPlan.name } : null,
      checkin_min_mb: c.CHECKIN_MIN_MB,
      checkin_max_mb: c.CHECKIN_MAX_MB,
      domain_grace_hours: c.DOMAIN_GRACE_HOURS,
      session_ttl_sec: c.JWT_TTL,
    },
    security: { staff_mfa_required: c.STAFF_MFA_REQUIRED, mfa_key_configured: Boolean(c.MFA_SECRET_KEY) },
    site: {
      public_url: c.PUBLIC_URL?.replace(/\/+$/, "") ?? null,
      payment: payGatewayKind(c),
      sms: c.SMS_DRIVER,
    },
  };
}
