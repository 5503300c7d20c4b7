import { z } from "zod";

export * from "./codes";

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
