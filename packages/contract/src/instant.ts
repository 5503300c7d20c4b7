/** ISO-8601 date-time with an explicit offset: a time without one would be read in the server's zone. */
const INSTANT = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d)(?:\.\d{1,3})?)?(?:Z|([+-])(\d\d):(\d\d))$/;

/**
 * Epoch ms of an ISO-8601 instant with `Z` or `±hh:mm`, or null when it has no offset or names no
 * real calendar time: Date.parse rolls 2026-11-31 over to 12-01 and 25:00 into the next day.
 */
export function parseInstant(text: string): number | null {
  const m = INSTANT.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi, s, oh, om] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? "0", m[8] ?? "0", m[9] ?? "0"].map(
    Number,
  );
  if (h > 23 || mi > 59 || s > 59 || oh > 23 || om > 59) return null;
  const day = new Date(Date.UTC(y, mo - 1, d));
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== mo - 1 || day.getUTCDate() !== d) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : at;
}
