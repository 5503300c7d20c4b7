import { z } from "zod";
import { int, time } from "../answers";
import { SslChallenges, SslSteps } from "../ssl";

/* Answers of the SSL certificate endpoints. */

export const SslCertViewAnswer = z.strictObject({
  id: int(),
  domain: z.string(),
  source: z.enum(["upload", "acme"]),
  names: z.array(z.string()).describe("subject alternative names"),
  issuer: z.string(),
  has_chain: z.boolean(),
  not_before: time(),
  not_after: time(),
  days_left: int().describe("negative once expired"),
  fingerprint: z.string().describe("SHA-256 of the leaf, colon separated"),
  notice: z.string().nullable(),
  notice_at: time().nullable(),
  created_at: time(),
  updated_at: time(),
});

export const SslOrderViewAnswer = z.strictObject({
  id: int(),
  domain: z.string(),
  challenge: z.enum(SslChallenges),
  step: z.enum(SslSteps),
  cert_id: int().nullable().describe("set when it renews an existing certificate"),
  renewal: z.boolean(),
  record: z
    .strictObject({ name: z.string(), value: z.string() })
    .nullable()
    .describe("dns-01: the TXT record; http-01: the file's URL and content"),
  message: z.string().nullable(),
  history: z.array(z.strictObject({ step: z.enum(SslSteps), at: time(), message: z.string().nullable() })),
  checks: int(),
  next_check_at: time().nullable(),
  created_at: time(),
  updated_at: time(),
});

export const SslOverviewAnswer = z.strictObject({
  certificates: z.array(SslCertViewAnswer),
  orders: z.array(SslOrderViewAnswer),
  domains: z.array(z.string()).describe("the customer's verified domains"),
  acme: z.strictObject({ name: z.string(), directory: z.string(), staging: z.boolean() }),
});
