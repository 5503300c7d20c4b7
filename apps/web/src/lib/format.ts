import type { UserInfo } from "@burrow/contract";
import { DISPLAY_TZ, dayjs } from "./dayjs";

/**
 * Formats an ISO-8601 UTC time from the API in Asia/Shanghai.
 * @param iso API time, e.g. "2025-01-01T00:00:00.000Z"
 * @returns "YYYY-MM-DD HH:mm:ss", or "-" when the value is empty or invalid
 */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return "-";
  const t = dayjs.utc(iso);
  return t.isValid() ? t.tz(DISPLAY_TZ).format("YYYY-MM-DD HH:mm:ss") : "-";
}

/**
 * Masks a secret for display, keeping a few characters at each end.
 * @param value the secret
 * @returns e.g. "ab12••••••••yz89"
 */
export function maskSecret(value: string): string {
  if (value.length <= 8) return "•".repeat(value.length);
  return `${value.slice(0, 4)}${"•".repeat(8)}${value.slice(-4)}`;
}

/**
 * Masks the middle of a mainland mobile number.
 * @param phone 11-digit number
 * @returns e.g. "138****0000"
 */
export function maskPhone(phone: string): string {
  return /^\d{11}$/.test(phone) ? `${phone.slice(0, 3)}****${phone.slice(7)}` : phone;
}

/**
 * A customer's phone as operator pages show it: the API answers "" for an account without one
 * (created by a third-party sign-in).
 * @returns the number, or "未绑定"
 */
export function phoneText(phone: string): string {
  return phone || "未绑定";
}

const BYTE_UNITS = ["B", "KB", "MB", "GB", "TB", "PB"];

/**
 * Formats a byte count (traffic, sizes) with binary units.
 * @param bytes integer bytes
 * @returns e.g. "0 B", "1.50 KB", "10.00 GB"
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return "0 B";
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  const exp = Math.min(BYTE_UNITS.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  return `${(bytes / 1024 ** exp).toFixed(2)} ${BYTE_UNITS[exp]}`;
}

/** Initials shown when the user has no avatar. */
export function avatarInitial(user: Pick<UserInfo, "nickname" | "personal_info">): string {
  const source = user.nickname.trim() || user.personal_info.phone_number.slice(-2);
  return source.slice(0, 1).toUpperCase();
}
