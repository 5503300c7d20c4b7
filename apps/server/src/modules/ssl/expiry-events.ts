import type { AppContext } from "../../context";
import { recordEvent } from "../../shared/outbox";
import { DAY_MS } from "../../shared/time";
import { transact } from "../../shared/tx";

/** A certificate still not renewed this many days before its end is announced, each once. */
export const CERT_EXPIRY_WARN_DAYS = [1, 7] as const;

/**
 * Job (hourly): each certificate ending within 7 days records "cert.expiring" for the nearest of
 * 7/1 days it is within; ACME ones are renewed 30 days ahead, so one still here did not renew, and
 * an uploaded one needs the customer. Keyed by (certificate, end, day): a renewal or a new upload
 * moves the end and stops the reminders.
 */
export async function recordCertsExpiring(ctx: AppContext, now = new Date()): Promise<number> {
  const horizon = new Date(now.getTime() + CERT_EXPIRY_WARN_DAYS[1] * DAY_MS).toISOString();
  const rows = await ctx.db
    .selectFrom("ssl_certificates")
    .select(["id", "uid", "domain", "not_after"])
    .where("not_after", ">", now.toISOString())
    .where("not_after", "<=", horizon)
    .limit(5000)
    .execute();
  let recorded = 0;
  for (const c of rows) {
    const left = new Date(c.not_after).getTime() - now.getTime();
    const days = CERT_EXPIRY_WARN_DAYS.find((d) => left <= d * DAY_MS)!;
    const id = await transact(ctx, (trx) =>
      recordEvent(
        trx,
        "cert.expiring",
        { uid: c.uid, cert_id: c.id, domain: c.domain, expires_at: c.not_after, days_left: days },
        { key: `cert.expiring:${c.id}:${c.not_after}:${days}`, now },
      ),
    );
    if (id !== null) recorded++;
  }
  return recorded;
}
