import { z } from "zod";

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

/** Optional numeric query value: "" and absent mean "not given". */
export const optionalInt = (min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess((v) => (v === "" || v === null ? undefined : v), z.coerce.number().int().min(min).max(max).optional());

/** Optional trimmed text query value: "" means "not given". */
export const optionalText = (max = 100) =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    z.string().trim().max(max).optional(),
  );

/** page (from 1) and size (default 10, max 100). */
export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(10),
});
export type PageQuery = z.infer<typeof PageQuery>;

/** Mainland China mobile number. */
export const Phone = z
  .string()
  .trim()
  .regex(/^1[3-9]\d{9}$/, "手机号格式不正确");

/** Password rule: 8 to 64 characters. */
export const Password = z.string().min(8, "密码至少 8 位").max(64, "密码最多 64 位");

/** Six-digit SMS code. */
export const SmsCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, "验证码为 6 位数字");
