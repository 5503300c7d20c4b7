import type { AdminUserRow, UserInfo } from "@burrow/contract";
import type { UserRow } from "./users.table";

/**
 * An account created by a third-party sign-in has no phone yet: its phone column holds this
 * prefix and a random tail (unique, never a valid mobile number, so no sign-in or SMS can reach
 * it) until the customer binds a real one (POST /user/phone).
 */
export const NO_PHONE_PREFIX = "nophone:";
export const hasPhone = (phone: string): boolean => !phone.startsWith(NO_PHONE_PREFIX);
/**
 * The phone to show: "" while none is bound (or no account, as a left join gives it). Every answer
 * that names a user's phone goes through this, or maskedPhone, never the column itself.
 */
export const shownPhone = (phone: string | null | undefined): string => (phone && hasPhone(phone) ? phone : "");

/** Hides all but the last four digits: 138****0000. */
export const maskPhone = (phone: string): string => `${phone.slice(0, 3)}****${phone.slice(-4)}`;
/** A user's phone masked (138****0000), "" while none is bound. */
export const maskedPhone = (phone: string | null | undefined): string => {
  const shown = shownPhone(phone);
  return shown && maskPhone(shown);
};

export function presentUserInfo(u: UserRow): UserInfo {
  return {
    uid: u.uid,
    role: u.role,
    status: u.status,
    nickname: u.nickname,
    balance: Number(u.balance),
    invite_code: u.invite_code,
    frp_token: u.frp_token,
    verify_status: u.verify_status,
    real_name: u.real_name,
    created_at: u.created_at,
    personal_info: { avatar: u.avatar, phone_number: shownPhone(u.phone) },
    phone_bound: hasPhone(u.phone),
    has_password: u.password_hash !== "",
  };
}

export function presentAdminUser(u: UserRow): AdminUserRow {
  return {
    uid: u.uid,
    phone: shownPhone(u.phone),
    nickname: u.nickname,
    role: u.role,
    status: u.status,
    balance: Number(u.balance),
    verify_status: u.verify_status,
    ban_reason: u.ban_reason,
    created_at: u.created_at,
    last_login_at: u.last_login_at,
  };
}
