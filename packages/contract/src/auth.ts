import { z } from "zod";
import { Password, Phone, SmsCode } from "./common";

export const SmsScenes = ["register", "reset", "login", "phone"] as const;

export const SmsBody = z.object({ phone: Phone, scene: z.enum(SmsScenes) });
export type SmsBody = z.infer<typeof SmsBody>;

export const RegisterBody = z.object({
  phone: Phone,
  code: SmsCode,
  password: Password,
  /** inviter's invite code */
  invite_code: z.preprocess((v) => (v === "" ? undefined : v), z.string().trim().max(32).optional()),
});
export type RegisterBody = z.infer<typeof RegisterBody>;

export const LoginBody = z.object({ phone: Phone, password: z.string().min(1, "请输入密码").max(64) });
export type LoginBody = z.infer<typeof LoginBody>;

export const ResetBody = z.object({ phone: Phone, code: SmsCode, password: Password });
export type ResetBody = z.infer<typeof ResetBody>;

export interface TokenResult {
  token: string;
  /** ISO time the token expires */
  expires_at: string;
}
