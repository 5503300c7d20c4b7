/** Time helpers. The API speaks ISO-8601 UTC; "days" are Asia/Shanghai (UTC+8, no DST). */

/** Asia/Shanghai is UTC+8 all year (no DST): the one copy of the offset. */
export const SHANGHAI_OFFSET_MS = 8 * 3600 * 1000;
export const DAY_MS = 24 * 3600 * 1000;

/** Shanghai wall-clock time of an instant, as a Date whose UTC fields read that wall clock. */
export const shanghaiWallClock = (at: Date | string | number): Date =>
  new Date(new Date(at).getTime() + SHANGHAI_OFFSET_MS);

export const nowIso = (): string => new Date().toISOString();

/** YYYY-MM-DD of the given instant in Asia/Shanghai. */
export function shanghaiDate(at: Date | string | number = Date.now()): string {
  const t = new Date(at).getTime() + SHANGHAI_OFFSET_MS;
  return new Date(t).toISOString().slice(0, 10);
}

/** The UTC instant at which the Shanghai day `date` (YYYY-MM-DD) starts. */
export function shanghaiDayStart(date: string): Date {
  return new Date(new Date(`${date}T00:00:00.000Z`).getTime() - SHANGHAI_OFFSET_MS);
}

/** Adds whole days to a YYYY-MM-DD date. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00.000Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
