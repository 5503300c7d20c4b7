/** Codes and envelope types, free of zod so the web entry can import them without pulling zod in. */

/** The success code of every envelope (SPEC §8). */
export const SUCCESS = "SUCCESS" as const;

/** Error codes (SPEC §8, meanings assigned in DESIGN.md §3). The UI branches on these, never on text. */
export const ErrorCode = {
  /** invalid parameters: HTTP 400, message names the field */
  InvalidParams: 10000,
  /** business rule refused (quota, limit, state) */
  BusinessRefused: 2001,
  /** insufficient balance */
  InsufficientBalance: 20011,
  /** no token / malformed token */
  TokenMissing: 30001,
  /** token expired */
  TokenExpired: 30002,
  /** session revoked (logout, password change, ban) */
  SessionRevoked: 30003,
  /** no permission */
  NoPermission: 30004,
  /**
   * the account is banned (HTTP 403): the message names the reason; `data` is {@link BannedData}.
   * Not a dead session: the web shows the ban and leads to the appeal instead of /login.
   */
  AccountBanned: 30005,
  /**
   * the password was right and a second factor is needed (HTTP 401): `data` is MfaChallengeData,
   * a short-lived challenge for POST /auth/mfa (or, with `setup`, the staff enrolment). No session.
   */
  SecondFactorRequired: 30006,
  /** remote duplicated: remote port or domain taken on that node */
  RemoteDuplicated: 40001,
  /** local duplicated: name already exists for this owner */
  LocalDuplicated: 40008,
  /** not found (HTTP 404); not named in SPEC, kept in the 2001 family for the UI */
  NotFound: 2004,
  /** too many requests (HTTP 429) */
  RateLimited: 2029,
  /** unexpected server error (HTTP 500) */
  Internal: 5000,
} as const;
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Codes after which the web app drops the token and goes to /login. */
export const SESSION_INVALID_CODES: readonly number[] = [
  ErrorCode.TokenMissing,
  ErrorCode.TokenExpired,
  ErrorCode.SessionRevoked,
];

/**
 * The `data` of an AccountBanned (30005) answer. `appeal` is given only to a sign-in with the right
 * password: a session that can do nothing but open and follow the account's one ban appeal.
 */
export interface BannedData {
  ban_reason: string | null;
  appeal?: { token: string; expires_at: string };
}

/** Every response body. */
export interface Envelope<T> {
  code: typeof SUCCESS | ErrorCodeValue | number;
  msg: string;
  data: T;
}

/** Paged lists answer this shape (DESIGN.md §3). */
export interface Paged<T> {
  list: T[];
  total: number;
  page: number;
  size: number;
}
