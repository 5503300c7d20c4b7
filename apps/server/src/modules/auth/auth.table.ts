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

/** Owned by the auth module: sessions and SMS codes. */
export interface AuthTables {
  sessions: SessionTable;
  sms_codes: SmsCodeTable;
}
