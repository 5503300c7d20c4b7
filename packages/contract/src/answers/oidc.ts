import { z } from "zod";
import { int, time } from "../answers";

/* Answers of the OpenID Connect sign-in endpoints (issue 34 §2). */

export const OidcProviderPublicAnswer = z.strictObject({ id: int(), name: z.string() });

export const OidcProviderRowAnswer = z.strictObject({
  id: int(),
  name: z.string(),
  issuer: z.string(),
  client_id: z.string(),
  has_secret: z.boolean().describe("the client secret itself is never answered"),
  scopes: z.string().describe("space-separated"),
  enabled: z.boolean(),
  created_at: time(),
  updated_at: time(),
});

export const OidcStartResultAnswer = z.strictObject({ url: z.string().describe("the provider's authorization URL") });

export const OidcCallbackResultAnswer = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("session"), token: z.string(), expires_at: time() }),
  z.strictObject({ kind: z.literal("bound"), provider: z.string().describe("display name") }),
  z.strictObject({
    kind: z.literal("unlinked"),
    ticket: z.string().describe("for /auth/oidc/link or /auth/oidc/register"),
    provider: z.string(),
    expires_at: time(),
  }),
]);

export const OidcBindingViewAnswer = z.strictObject({ provider_id: int(), provider: z.string(), created_at: time() });
