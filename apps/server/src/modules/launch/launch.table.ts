/** One customer's launch token (migration 2026-11-28T20-17); a revoked token's row is deleted. */
export interface LaunchTokenTable {
  uid: number;
  /** shown in the installers at any time, like users.frp_token (docs/launch.md "Security") */
  token: string;
  /** hex SHA-256 of `token`: the public routes find the row by it */
  token_hash: string;
  /** hex SHA-256 of the frp token it was issued under: a reset frp token retires it (migration 2026-11-28T20-40) */
  frp_token_hash: string;
  created_at: string;
}

/** Owned by the launch module. */
export interface LaunchTables {
  launch_tokens: LaunchTokenTable;
}
