/** Calendar arithmetic for subscription periods, in Asia/Shanghai (UTC+8, no DST). */

const SHANGHAI_OFFSET_MS = 8 * 3600 * 1000;
export const DAY_MS = 24 * 3600 * 1000;

/**
 * Adds calendar months in Shanghai time, keeping the time of day and clamping the day to the
 * target month's length (Jan 31 + 1 month = Feb 28/29), so a month never spills into the next.
 * @param at ISO instant.
 * @param months whole months, may be negative.
 * @returns ISO instant.
 */
export function addMonths(at: string | Date, months: number): string {
  const local = new Date(new Date(at).getTime() + SHANGHAI_OFFSET_MS);
  const day = local.getUTCDate();
  const target = new Date(local.getTime());
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return new Date(target.getTime() - SHANGHAI_OFFSET_MS).toISOString();
}
