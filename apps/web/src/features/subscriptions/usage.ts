/**
 * How much of a traffic quota is used, for a progress bar.
 * @param used bytes used
 * @param quota bytes allowed; 0 means nothing is allowed
 * @returns 0–100, one decimal; 100 when the quota is 0 and anything was used
 */
export function usedPercent(used: number, quota: number): number {
  if (quota <= 0) return used > 0 ? 100 : 0;
  return Math.min(100, Math.max(0, Math.round((used / quota) * 1000) / 10));
}
