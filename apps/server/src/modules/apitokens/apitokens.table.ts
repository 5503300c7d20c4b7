/** One API token (migration 2026-11-28T06-00): the secret itself is never stored, only its SHA-256. */
export interface ApiTokenTable {
  /** 16 hex characters: the token's public part, `brw_<id>_<secret>` */
  id: string;
  uid: number;
  name: string;
  /** comma-separated ApiTokenScope values */
  scopes: string;
  /** hex SHA-256 of the secret part */
  secret_hash: string;
  created_at: string;
  /** null: never expires */
  expires_at: string | null;
  /** written at most once a minute per token (see touch in api-token-credential.ts) */
  last_used_at: string | null;
  last_used_ip: string | null;
  revoked_at: string | null;
}

/** Owned by the apitokens module. */
export interface ApitokensTables {
  api_tokens: ApiTokenTable;
}
