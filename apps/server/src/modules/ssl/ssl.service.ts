import type { SslOverview } from "@burrow/contract";
import type { AppContext } from "../../context";
import { invalid } from "../../shared/errors";
import { DAY_MS } from "../../shared/time";
import { acmeDirectory } from "./acme";
import { certView, orderView } from "./ssl.presenter";
import { ENDED, myCert } from "./ssl.repository";

/*
 * The customer's certificates page, and the domains a certificate may be for. Uploads
 * (uploads.ts), downloads (downloads.ts), ACME issues (issues.ts, advanced by acme-steps.ts) and
 * renewals (renewals.ts) are beside it.
 */

/**
 * The domains the customer holds now — verified, or flagged and still within the grace period —
 * as the domains module answers through the context (importing it would close a cycle through
 * tunnels, which asks this module for certificates).
 */
async function heldDomains(ctx: AppContext, uid: number): Promise<string[]> {
  const now = Date.now();
  return [...(await ctx.domains.usable(ctx.db, uid))]
    .filter(([, d]) => d.untilMs > now && !d.taken)
    .map(([name]) => name);
}

export async function holds(ctx: AppContext, uid: number, domain: string): Promise<boolean> {
  return (await heldDomains(ctx, uid)).includes(domain);
}

export async function requireVerified(ctx: AppContext, uid: number, domain: string): Promise<void> {
  if (!(await holds(ctx, uid, domain)))
    throw invalid("domain", `${domain} 不是你已验证的域名，请先在“域名”页添加并完成验证`);
}

export async function overview(ctx: AppContext, uid: number, now = new Date()): Promise<SslOverview> {
  const since = new Date(now.getTime() - 7 * DAY_MS).toISOString();
  const [certs, orders, domains] = await Promise.all([
    ctx.db.selectFrom("ssl_certificates").selectAll().where("uid", "=", uid).orderBy("domain").execute(),
    ctx.db
      .selectFrom("ssl_orders")
      .selectAll()
      .where("uid", "=", uid)
      .where((eb) => eb.or([eb("step", "not in", ENDED), eb("updated_at", ">=", since)]))
      .orderBy("id", "desc")
      .limit(50)
      .execute(),
    heldDomains(ctx, uid),
  ]);
  return {
    certificates: certs.map((c) => certView(c, now)),
    orders: orders.map(orderView),
    domains: domains.sort(),
    acme: acmeDirectory(ctx),
  };
}

export async function removeCertificate(ctx: AppContext, uid: number, id: number): Promise<void> {
  const row = await myCert(ctx.db, uid, id);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom("ssl_certificates").where("id", "=", row.id).execute();
    // A renewal in progress would bring it back: it ends with the certificate.
    await trx
      .updateTable("ssl_orders")
      .set({ step: "cancelled", message: "证书已删除", next_check_at: null, updated_at: new Date().toISOString() })
      .where("cert_id", "=", row.id)
      .where("step", "not in", ENDED)
      .execute();
  });
}
