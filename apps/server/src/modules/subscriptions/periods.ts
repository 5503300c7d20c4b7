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

/**
 * The pro-rata value of a subscription's unused whole days:
 * `floor(paid_amount × unused_days / total_days)`, where total_days is the subscription's whole
 * span (start to end, rounded to days) and unused_days the whole days left (today counts as used).
 * A subscription without an end (the free plan) or that cost nothing is worth 0.
 */
export function proRataCredit(
  sub: { start_at: string; end_at: string | null; paid_amount: number },
  now: Date,
): { credit: number; unusedDays: number; totalDays: number } {
  const paid = Number(sub.paid_amount);
  if (!sub.end_at || paid <= 0) return { credit: 0, unusedDays: 0, totalDays: 0 };
  const end = Date.parse(sub.end_at);
  const totalDays = Math.max(1, Math.round((end - Date.parse(sub.start_at)) / DAY_MS));
  const unusedDays = Math.min(totalDays, Math.max(0, Math.floor((end - now.getTime()) / DAY_MS)));
  return { credit: Math.floor((paid * unusedDays) / totalDays), unusedDays, totalDays };
}
