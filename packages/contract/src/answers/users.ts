import { z } from "zod";
import { int, time } from "../answers";

/* Answers of the customer's own account endpoints (issue 34 §2); UserInfoAnswer lives in answers.ts. */

export const LoginLogAnswer = z.strictObject({
  id: int(),
  ip: z.string(),
  user_agent: z.string(),
  method: z
    .enum(["password", "register", "sms", "oidc", "passkey"])
    .describe("how the session was opened (sms: linking a provider by SMS)"),
  provider: z.string().nullable().describe("the provider's display name for oidc (or sms while linking one)"),
  created_at: time(),
});

export const FrpTokenAnswer = z.strictObject({ frp_token: z.string().describe("the new frp secret") });

export const AvatarAnswer = z.strictObject({
  url: z.string().describe("/api/uploads/avatars/<uid>-<16 hex>.<ext>, already saved on the user"),
});
