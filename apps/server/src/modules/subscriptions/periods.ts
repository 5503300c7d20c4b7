/** Calendar arithmetic for subscription periods, in Asia/Shanghai (UTC+8, no DST). */

import { DAY_MS, SHANGHAI_OFFSET_MS, shanghaiWallClock } from "../../shared/time";

export { DAY_MS };

/**
 * Adds calendar months in Shanghai time, keeping the time of day and clamping the day to the
 * target month's length (Jan 31 + 1 month = Feb 28/29), so a month never spills into the next.
 * @param at ISO instant.
 * @param months whole months, may be negative.
 * @returns ISO instant.
 */
export function addMonths(at: string | Date, months: number): string {
  const local = shanghaiWallClock(at);
  const day = local.getUTCDate();
  const target = new Date(local.getTime());
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return new Date(target.getTime() - SHANGHAI_OFFSET_MS).toISOString();
}
