import { z } from "zod";
import { int } from "../answers";

/* The answer of the site-wide settings page (issue 34 §2). */

export const SiteSettingsAnswer = z.strictObject({
  verify: z.strictObject({
    required_for_tunnels: z.boolean(),
    mode: z.enum(["sandbox", "manual", "redirect"]).describe("VERIFY_PROVIDER"),
  }),
  affiliate: z.strictObject({
    rate_bp: int().describe("basis points (1000 = 10 %)"),
    hold_days: int(),
    min_withdraw: int().describe("fen"),
  }),
  assistant: z.strictObject({
    configured: z.boolean(),
    model: z.string().nullable(),
    daily_limit: int(),
    timeout_sec: int(),
  }),
  defaults: z.strictObject({
    default_plan: z.strictObject({ id: int(), name: z.string() }).nullable(),
    checkin_min_mb: int(),
    checkin_max_mb: int(),
    domain_grace_hours: int(),
    session_ttl_sec: int(),
  }),
  security: z.strictObject({ staff_mfa_required: z.boolean(), mfa_key_configured: z.boolean() }),
  site: z.strictObject({
    public_url: z.string().nullable(),
    payment: z.enum(["epay", "sandbox"]),
    sms: z.enum(["console", "http"]),
  }),
});
