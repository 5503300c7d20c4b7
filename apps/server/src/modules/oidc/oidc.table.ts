import type { Generated } from "kysely";

/** An operator-configured OpenID Connect provider; the client secret is stored encrypted (secrets.ts). */
export interface OidcProviderTable {
  id: Generated<number>;
  name: string;
  issuer: string;
  client_id: string;
  client_secret_enc: string;
  /** space-separated, always with openid */
  scopes: string;
  enabled: number;
  created_at: string;
  updated_at: string;
}

/** A customer's binding: the provider's `sub` for that account (one per provider and account). */
export interface OidcIdentityTable {
  id: Generated<number>;
  uid: number;
  provider_id: number;
  subject: string;
  created_at: string;
}

/**
 * A flow in progress: keyed by the state's hash, bound to the browser's cookie (its hash), single
 * use (used_at) and short-lived. Holds the nonce and the PKCE verifier the callback checks.
 */
export interface OidcFlowTable {
  state_hash: string;
  browser_hash: string;
  provider_id: number;
  /** login or bind */
  intent: string;
  /** the signed-in customer for a bind flow */
  uid: number | null;
  nonce: string;
  code_verifier: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A verified identity bound to no account yet, waiting for the customer to link or register (ticket). */
export interface OidcPendingTable {
  ticket_hash: string;
  browser_hash: string;
  provider_id: number;
  subject: string;
  /** a nickname for a new account, from the provider's claims */
  nickname: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface OidcTables {
  oidc_providers: OidcProviderTable;
  oidc_identities: OidcIdentityTable;
  oidc_flows: OidcFlowTable;
  oidc_pending: OidcPendingTable;
}
