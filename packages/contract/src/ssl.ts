import { z } from "zod";
import { CustomDomain } from "./tunnels";

/**
 * SSL certificates for a customer's verified domains (/ssl): uploaded (a PEM chain and its key)
 * or issued through ACME (Let's Encrypt by default) with a DNS-01 or HTTP-01 challenge. One
 * certificate per domain; a new one (upload, issue or renewal) replaces it.
 */

export const SslChallenges = ["dns-01", "http-01"] as const;
export type SslChallenge = (typeof SslChallenges)[number];

/**
 * Steps of an ACME issue, in order. `waiting` — the record (DNS-01 TXT) or the file (HTTP-01) must
 * be put in place; `validating` — the CA is checking it; `finalizing` — the CA is signing;
 * `issued` and `failed` end it, so do `cancelled` (by the customer).
 */
export const SslSteps = ["waiting", "validating", "finalizing", "issued", "failed", "cancelled"] as const;
export type SslStep = (typeof SslSteps)[number];

export const SslStepLabels: Record<SslStep, string> = {
  waiting: "等待验证记录生效",
  validating: "证书颁发机构验证中",
  finalizing: "签发证书中",
  issued: "已签发",
  failed: "失败",
  cancelled: "已取消",
};

/** What a download holds: the leaf, its private key, the intermediates, or leaf + intermediates. */
export const SslFileParts = ["cert", "key", "chain", "fullchain"] as const;
export type SslFilePart = (typeof SslFileParts)[number];

/** File names of a download (and the names the frpc config expects next to frpc). */
export const SslFileNames: Record<SslFilePart, string> = {
  cert: "cert.pem",
  key: "privkey.pem",
  chain: "chain.pem",
  fullchain: "fullchain.pem",
};

/** Largest PEM text accepted for an upload (a chain of a few certificates is far smaller). */
export const SSL_PEM_MAX = 64 * 1024;

export const SslUploadBody = z.object({
  domain: CustomDomain,
  /** the certificate first, then its intermediates in order */
  certificate: z.string().trim().min(1, "请粘贴证书（PEM）").max(SSL_PEM_MAX, "证书内容过长"),
  private_key: z.string().trim().min(1, "请粘贴私钥（PEM）").max(SSL_PEM_MAX, "私钥内容过长"),
});
export type SslUploadBody = z.infer<typeof SslUploadBody>;

export const SslIssueBody = z.object({
  domain: CustomDomain,
  challenge: z.enum(SslChallenges, { error: "请选择验证方式（dns-01 或 http-01）" }),
});
export type SslIssueBody = z.infer<typeof SslIssueBody>;

export const SslIdParams = z.object({ id: z.coerce.number().int().min(1) });
export const SslDownloadQuery = z.object({
  part: z.enum(SslFileParts, { error: "part 只能是 cert、key、chain 或 fullchain" }),
});

/** A certificate as the customer sees it (never the key). */
export interface SslCertView {
  id: number;
  domain: string;
  /** "upload" or "acme" (only these renew by themselves) */
  source: "upload" | "acme";
  /** the names the certificate covers (subject alternative names) */
  names: string[];
  issuer: string;
  /** whether intermediates came with it (the "chain" download is empty otherwise) */
  has_chain: boolean;
  not_before: string;
  not_after: string;
  /** days until expiry (negative once expired) */
  days_left: number;
  /** SHA-256 fingerprint of the leaf, colon separated */
  fingerprint: string;
  /** what the renewal job last told the customer about it, with when */
  notice: string | null;
  notice_at: string | null;
  created_at: string;
  updated_at: string;
}

/** An ACME issue (or renewal) in progress or ended. */
export interface SslOrderView {
  id: number;
  domain: string;
  challenge: SslChallenge;
  step: SslStep;
  /** set when it renews an existing certificate */
  cert_id: number | null;
  renewal: boolean;
  /** DNS-01: the TXT record to create (name and value); HTTP-01: the file to serve (URL and content) */
  record: { name: string; value: string } | null;
  /** what the last check found or why it failed, in words for the customer */
  message: string | null;
  /** every step reached, with when */
  history: { step: SslStep; at: string; message: string | null }[];
  checks: number;
  next_check_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface SslOverview {
  certificates: SslCertView[];
  /** issues not ended yet, and those ended in the last 7 days */
  orders: SslOrderView[];
  /** the customer's verified domains (what a certificate may be for) */
  domains: string[];
  /** the ACME server in use: "letsencrypt", "letsencrypt-staging" or a custom directory's host */
  acme: { name: string; directory: string; staging: boolean };
}
