import type { SslChallenge } from "@burrow/contract";
import type { AppContext } from "../../context";
import { DAY_MS } from "../../shared/time";
import { advanceIssue, renewalNotice } from "./acme-steps";
import { createIssue } from "./issues";
import { secretAvailable } from "./secret";
import { fmtDay } from "./ssl.presenter";
import { openIssue } from "./ssl.repository";
import { holds } from "./ssl.service";

/** ACME certificates are renewed this long before they expire. */
export const RENEW_BEFORE_DAYS = 30;

/**
 * Job: starts the renewal of every ACME certificate expiring within RENEW_BEFORE_DAYS that has no
 * issue in progress, with the challenge its last issue used, and tells the customer on the
 * certificate (the record to update, or why it could not start). A certificate whose domain is no
 * longer verified is not renewed (the customer is told). At most one attempt a day per certificate.
 */
export async function renewDueCertificates(ctx: AppContext, now = new Date()): Promise<number> {
  if (!secretAvailable(ctx)) return 0;
  const dayAgo = new Date(now.getTime() - DAY_MS).toISOString();
  const due = await ctx.db
    .selectFrom("ssl_certificates")
    .selectAll()
    .where("source", "=", "acme")
    .where("not_after", "<=", new Date(now.getTime() + RENEW_BEFORE_DAYS * DAY_MS).toISOString())
    .where((eb) => eb.or([eb("notice_at", "is", null), eb("notice_at", "<", dayAgo)]))
    .limit(100)
    .execute();
  let started = 0;
  for (const cert of due) {
    if (await openIssue(ctx.db, cert.uid, cert.domain)) continue;
    const tell = (notice: string) =>
      ctx.db
        .updateTable("ssl_certificates")
        .set({ notice, notice_at: now.toISOString() })
        .where("id", "=", cert.id)
        .execute();
    if (!(await holds(ctx, cert.uid, cert.domain))) {
      await tell(`证书将于 ${fmtDay(cert.not_after)} 到期，但域名已不再是已验证状态，无法自动续期`);
      continue;
    }
    const last = await ctx.db
      .selectFrom("ssl_orders")
      .select("challenge")
      .where("uid", "=", cert.uid)
      .where("domain", "=", cert.domain)
      .orderBy("id", "desc")
      .executeTakeFirst();
    try {
      const row = await createIssue(
        ctx,
        cert.uid,
        cert.domain,
        (last?.challenge as SslChallenge) ?? "dns-01",
        {
          certId: cert.id,
          renewal: true,
        },
        now,
      );
      started++;
      await renewalNotice(ctx, row);
      if (row.step !== "waiting") await advanceIssue(ctx, row.id, { now });
    } catch (err) {
      await tell(
        `证书将于 ${fmtDay(cert.not_after)} 到期，自动续期未能开始：${(err as Error).message}；明天将再次尝试`,
      );
    }
  }
  return started;
}
