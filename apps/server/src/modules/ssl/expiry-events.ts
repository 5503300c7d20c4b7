import type { AppContext } from "../../context";
import { recordReminders, reminderHorizon } from "../../shared/reminders";

/** A certificate still not renewed this many days before its end is announced, each once. */
export const CERT_EXPIRY_WARN_DAYS = [1, 7] as const;

/**
 * Job (hourly): each certificate ending within 7 days records "cert.expiring" for the nearest of
 * 7/1 days it is within; ACME ones are renewed 30 days ahead, so one still here did not renew, and
 * an uploaded one needs the customer. Keyed by (certificate, end, day): a renewal or a new upload
 * moves the end and stops the reminders.
 */
export async function recordCertsExpiring(ctx: AppContext, now = new Date()): Promise<number> {
  const rows = await ctx.db
    .selectFrom("ssl_certificates")
    .select(["id", "uid", "domain", "not_after as end"])
    .where("not_after", ">", now.toISOString())
    .where("not_after", "<=", reminderHorizon(CERT_EXPIRY_WARN_DAYS, now))
    .limit(5000)
    .execute();
  return recordReminders(
    ctx,
    "cert.expiring",
    rows,
    CERT_EXPIRY_WARN_DAYS,
    (c, days) => ({ uid: c.uid, cert_id: c.id, domain: c.domain, expires_at: c.end, days_left: days }),
    now,
  );
}
