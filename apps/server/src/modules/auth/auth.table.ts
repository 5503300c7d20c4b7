import type { Generated } from "kysely";

export interface SessionTable {
  id: string;
  uid: number;
  ip: string;
  user_agent: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  /** NULL: a console session (every scope); "appeal": a banned account's appeal session */
  scope: string | null;
  /** when the session was last used (refreshed at most every few minutes); NULL: not since it began */
  last_seen_at: string | null;
}

/** An account's TOTP factor (RFC 6238); one per account. */
export interface TotpFactorTable {
  uid: number;
  /** the base32 secret sealed with AES-256-GCM (shared/secret-box.ts), bound to the uid */
  secret: string;
  /** NULL: pending, not yet confirmed with a code, signs nobody in */
  enabled_at: string | null;
  /** the last 30-second step whose code was accepted: that code and older ones are refused */
  last_step: number | null;
  created_at: string;
}

export interface RecoveryCodeTable {
  id: Generated<number>;
  uid: number;
  /** SHA-256 hex of the normalised code */
  code_hash: string;
  used_at: string | null;
  created_at: string;
}

/** Devices (user-agent family + network) an account has signed in from. */
export interface KnownDeviceTable {
  id: Generated<number>;
  uid: number;
  device_key: string;
  created_at: string;
}

export interface SmsCodeTable {
  id: Generated<number>;
  phone: string;
  scene: string;
  code_hash: string;
  attempts: Generated<number>;
  ip: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A WebAuthn credential (passkeys.ts). */
export interface PasskeyTable {
  id: Generated<number>;
  uid: number;
  /** base64url; unique across accounts */
  credential_id: string;
  /** base64url COSE public key */
  public_key: string;
  /** the last signature counter accepted: a lower or equal one (when not both 0) is refused */
  counter: number;
  /** JSON array of transport hints */
  transports: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/** A WebAuthn challenge handed out: deleted when answered (single use) or expired. */
export interface PasskeyChallengeTable {
  challenge: string;
  purpose: string;
  uid: number;
  bound_to: string;
  expires_at: string;
}

/** Owned by the auth module: sessions, SMS codes, second factors and known devices. */
export interface AuthTables {
  sessions: SessionTable;
  sms_codes: SmsCodeTable;
  totp_factors: TotpFactorTable;
  recovery_codes: RecoveryCodeTable;
  known_devices: KnownDeviceTable;
  passkeys: PasskeyTable;
  passkey_challenges: PasskeyChallengeTable;
}
