import { DeletionStatus } from "@burrow/contract";
import type { AppContext } from "../../context";
import { lockUser } from "../../shared/locks";
import { transact } from "../../shared/tx";
import { eraseAffiliateOf } from "../affiliate/account-data";
import { eraseApiTokens } from "../apitokens/account-data";
import { eraseAssistantOf } from "../assistant/account-data";
import { eraseAuthData } from "../auth/account-data";
import { eraseDomainsOf } from "../domains/account-data";
import { pseudonymiseInvoicesOf } from "../invoices/account-data";
import { eraseLaunchToken } from "../launch/account-data";
import { eraseNoticesOf } from "../notices/account-data";
import { eraseOidcIdentities } from "../oidc/account-data";
import { pseudonymiseOrdersOf } from "../orders/account-data";
import { eraseSslOf } from "../ssl/account-data";
import { eraseTicketsOf, removeTicketFiles } from "../tickets/account-data";
import { eraseAccountTunnels } from "../tunnels/account-data";
import { eraseUptimeOf } from "../uptime/account-data";
import { eraseUserData } from "../users/account-data";
import { removeAvatarFiles } from "../users/avatars";
import { eraseVerificationOf, removeVerificationFiles } from "../verify/account-data";
import { eraseWebhooksOf } from "../webhooks/account-data";

/**
 * Erases one account whose cool-off ended, in one transaction: the request is claimed first
 * (pending → done, conditionally), so a second process running the job at the same time (or the
 * same one again) finds nothing to claim and changes nothing; a failure rolls everything back and
 * the next run tries again. Each owner erases its own tables. Files (attachments, ID photos,
 * avatars) go after the commit.
 * @returns whether this call erased it
 */
async function eraseOne(ctx: AppContext, id: number, uid: number, now: Date): Promise<boolean> {
  const files = await transact(ctx, async (trx) => {
    await lockUser(trx, uid);
    const claimed = await trx
      .updateTable("account_deletions")
      .set({ status: DeletionStatus.Done, erased_at: now.toISOString() })
      .where("id", "=", id)
      .where("status", "=", DeletionStatus.Pending)
      .where("executes_at", "<=", now.toISOString())
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return null;
    // Tunnels before domains: deleting a tunnel releases the domains it holds.
    await eraseAccountTunnels(trx, uid);
    await eraseDomainsOf(trx, uid);
    await eraseSslOf(trx, uid);
    await eraseAuthData(trx, uid);
    await eraseApiTokens(trx, uid);
    await eraseLaunchToken(trx, uid);
    await eraseOidcIdentities(trx, uid);
    const ticketFiles = await eraseTicketsOf(trx, uid);
    const photos = await eraseVerificationOf(trx, uid);
    await pseudonymiseOrdersOf(trx, uid);
    await pseudonymiseInvoicesOf(trx, uid);
    await eraseAffiliateOf(trx, uid);
    await eraseAssistantOf(trx, uid);
    await eraseNoticesOf(trx, uid);
    await eraseWebhooksOf(trx, uid);
    await eraseUptimeOf(trx, uid);
    await eraseUserData(trx, uid);
    return { ticketFiles, photos };
  });
  if (!files) return false;
  await removeTicketFiles(ctx, files.ticketFiles);
  await removeVerificationFiles(ctx, files.photos);
  await removeAvatarFiles(ctx, uid);
  ctx.log.info({ uid }, "leaving: account erased at the end of its cool-off");
  return true;
}

/** The job: erases every account whose cool-off ended by `now`. @returns how many this run erased */
export async function eraseDueAccounts(ctx: AppContext, now = new Date()): Promise<number> {
  const due = await ctx.db
    .selectFrom("account_deletions")
    .select(["id", "uid"])
    .where("status", "=", DeletionStatus.Pending)
    .where("executes_at", "<=", now.toISOString())
    .orderBy("executes_at")
    .limit(100)
    .execute();
  let erased = 0;
  for (const d of due) if (await eraseOne(ctx, d.id, d.uid, now)) erased++;
  return erased;
}
