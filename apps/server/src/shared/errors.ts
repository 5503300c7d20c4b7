import { ErrorCode } from "@burrow/contract";

/** The one error type services throw; the error handler turns it into the envelope. */
export class AppError extends Error {
  constructor(
    readonly code: number,
    readonly status: number,
    message: string,
    /** the request field the error is about, when there is one */
    readonly field?: string,
    /** the envelope's `data` when the error carries more than its field (AccountBanned: BannedData) */
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "AppError";
  }
}

/** 400/10000 naming the field. */
export const invalid = (field: string, message: string) =>
  new AppError(ErrorCode.InvalidParams, 400, `${field}: ${message}`, field);
/** 403/2001: a business rule refused the request. */
export const refused = (message: string) => new AppError(ErrorCode.BusinessRefused, 403, message);
export const notFound = (what: string) => new AppError(ErrorCode.NotFound, 404, `${what}不存在`);
export const forbidden = () => new AppError(ErrorCode.NoPermission, 403, "无权访问");
export const localDuplicated = (message: string, field?: string) =>
  new AppError(ErrorCode.LocalDuplicated, 409, message, field);
export const remoteDuplicated = (message: string, field?: string) =>
  new AppError(ErrorCode.RemoteDuplicated, 409, message, field);
export const insufficientBalance = () => new AppError(ErrorCode.InsufficientBalance, 402, "余额不足，请先充值");
export const rateLimited = (retryAfterSec: number) =>
  new AppError(ErrorCode.RateLimited, 429, `操作过于频繁，请 ${retryAfterSec} 秒后再试`);
