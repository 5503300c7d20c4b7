import type { Generated, Selectable } from "kysely";

/** A customer's certificate for one of its verified domains (one per domain; replaced, not stacked). */
export interface SslCertificateTable {
  id: Generated<number>;
  uid: number;
  /** canonical form (normalizeDomain) */
  domain: string;
  /** "upload" or "acme" (only ACME certificates are renewed by the job) */
  source: string;
  /** the leaf certificate (PEM) */
  cert_pem: string;
  /** the intermediates in order (PEM, may be empty) */
  chain_pem: string;
  /** the private key (PKCS#8 PEM), AES-256-GCM encrypted (secret.ts) */
  key_enc: string;
  /** JSON array of the names the leaf covers */
  names: string;
  issuer: string;
  /** SHA-256 of the leaf, colon separated */
  fingerprint: string;
  not_before: string;
  not_after: string;
  /** the last thing the renewal job told the customer about this certificate */
  notice: string | null;
  notice_at: string | null;
  created_at: string;
  updated_at: string;
}
export type SslCertificateRow = Selectable<SslCertificateTable>;

/** An ACME issue or renewal: a state machine the job (or the customer's "check now") advances. */
export interface SslOrderTable {
  id: Generated<number>;
  uid: number;
  domain: string;
  /** the certificate it renews (renewal) or replaces once issued */
  cert_id: number | null;
  renewal: number;
  /** "dns-01" or "http-01" */
  challenge: string;
  /** SslStep */
  step: string;
  /** the last check's finding or the failure, for the customer */
  message: string | null;
  /** JSON: [{step, at, message}] */
  history: string;
  /** the ACME directory the order lives in */
  directory: string;
  order_url: string;
  authz_url: string;
  challenge_url: string;
  /** HTTP-01 token (the file name) */
  token: string;
  /** DNS-01: the TXT value; HTTP-01: the file's content (key authorization) */
  record_value: string;
  /** the certificate key made for this order (PKCS#8 PEM), encrypted */
  key_enc: string;
  checks: number;
  next_check_at: string | null;
  /** taken by one advancer at a time (the job or a "check now") until then */
  lease_until: string | null;
  created_at: string;
  updated_at: string;
}
export type SslOrderRow = Selectable<SslOrderTable>;

/** The ACME account Burrow uses at one directory; its key encrypted like certificate keys. */
export interface SslAcmeAccountTable {
  directory: string;
  key_enc: string;
  account_url: string;
  created_at: string;
}

export interface SslTables {
  ssl_certificates: SslCertificateTable;
  ssl_orders: SslOrderTable;
  ssl_acme_accounts: SslAcmeAccountTable;
}
