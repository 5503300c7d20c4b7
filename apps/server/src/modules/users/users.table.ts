import type { Generated, Insertable, Selectable, Updateable } from "kysely";

export interface UserTable {
  uid: Generated<number>;
  phone: string;
  password_hash: string;
  role: number;
  status: number;
  ban_reason: string | null;
  nickname: string;
  avatar: Generated<string>;
  balance: Generated<number>;
  frp_token: string;
  invite_code: string;
  referrer_uid: number | null;
  verify_status: Generated<number>;
  real_name: string | null;
  id_number_masked: string | null;
  created_at: string;
  last_login_at: string | null;
}
export type UserRow = Selectable<UserTable>;
export type NewUserRow = Insertable<UserTable>;
export type UserUpdate = Updateable<UserTable>;

export interface LoginLogTable {
  id: Generated<number>;
  uid: number;
  ip: string;
  user_agent: string;
  /** password, register, sms (a provider linked by SMS) or oidc */
  method: Generated<string>;
  /** the provider's display name for oidc / sms */
  provider: string | null;
  created_at: string;
}

export interface BalanceLedgerTable {
  id: Generated<number>;
  uid: number;
  change: number;
  balance_before: number;
  balance_after: number;
  reason: string;
  order_id: string | null;
  operator_uid: number | null;
  created_at: string;
}

export interface UserTables {
  users: UserTable;
  login_logs: LoginLogTable;
  balance_ledger: BalanceLedgerTable;
}
