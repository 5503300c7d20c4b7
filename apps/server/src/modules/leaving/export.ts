import { EXPORT_SIGN_IN_MINUTES, EXPORTS_PER_HOUR } from "@burrow/contract";
import type { AppContext } from "../../context";
import type { Principal } from "../../shared/auth";
import type { FileDownload } from "../../shared/download";
import { rateLimited, refused } from "../../shared/errors";
import { shanghaiDate } from "../../shared/time";
import { listApiTokens } from "../apitokens/api-tokens.service";
import { authDataOf, sessionSignedInAt } from "../auth/account-data";
import { SESSION_KIND } from "../auth/sessions";
import { domainsDataOf } from "../domains/account-data";
import { invoicesDataOf } from "../invoices/account-data";
import { noticesDataOf } from "../notices/account-data";
import { listBindings } from "../oidc/oidc.service";
import { ordersDataOf } from "../orders/account-data";
import { ticketsDataOf } from "../tickets/account-data";
import { tunnelsDataOf } from "../tunnels/account-data";
import { userDataOf } from "../users/account-data";
import { verificationDataOf } from "../verify/account-data";
import { webhooksDataOf } from "../webhooks/account-data";
import { myDeletion } from "./leaving.service";

/** Bumped when the export's shape changes incompatibly (docs/leaving.md lists what it holds). */
export const EXPORT_FORMAT = "burrow-export/1";

/**
 * A console session signed in within the last EXPORT_SIGN_IN_MINUTES: whoever finds an unlocked
 * browser hours later cannot walk away with the whole account.
 */
async function requireRecentSignIn(ctx: AppContext, caller: Principal, now: Date): Promise<void> {
  const at = caller.kind === SESSION_KIND ? await sessionSignedInAt(ctx.db, caller.credentialId) : null;
  if (!at || now.getTime() - Date.parse(at) > EXPORT_SIGN_IN_MINUTES * 60_000)
    throw refused(`为保护账户数据，请重新登录后 ${EXPORT_SIGN_IN_MINUTES} 分钟内导出`);
}

/**
 * The customer's data as one JSON file (issue 34 §6): everything the account holds about its
 * owner, each part read by the module that owns it, only this uid's rows. Secrets are left out
 * (password hash, frp token, TOTP secret and recovery codes, token hashes, verification evidence
 * and hashes, domain verification tokens, the HTTP password of a tunnel).
 */
export async function exportData(ctx: AppContext, caller: Principal, now = new Date()): Promise<FileDownload> {
  await requireRecentSignIn(ctx, caller, now);
  const uid = caller.uid;
  const hit = await ctx.limiter.hit(`leaving:export:${uid}`, EXPORTS_PER_HOUR, 3600);
  if (!hit.allowed) throw rateLimited(hit.retryAfterSec);
  const [
    user,
    auth,
    apiTokens,
    bindings,
    tunnels,
    domains,
    orders,
    invoices,
    tickets,
    verification,
    deletion,
    notices,
    webhooks,
  ] = await Promise.all([
    userDataOf(ctx.db, uid),
    authDataOf(ctx.db, uid),
    listApiTokens(ctx.db, uid),
    listBindings(ctx, uid),
    tunnelsDataOf(ctx.db, uid),
    domainsDataOf(ctx.db, uid),
    ordersDataOf(ctx.db, uid),
    invoicesDataOf(ctx.db, uid),
    ticketsDataOf(ctx.db, uid),
    verificationDataOf(ctx.db, uid),
    myDeletion(ctx, uid),
    noticesDataOf(ctx.db, uid),
    webhooksDataOf(ctx.db, uid),
  ]);
  const data = {
    format: EXPORT_FORMAT,
    exported_at: now.toISOString(),
    profile: user.profile,
    verification,
    sign_ins: user.logins,
    sessions: auth.sessions,
    two_factor_enabled_at: auth.totp_enabled_at,
    passkeys: auth.passkeys,
    api_tokens: apiTokens,
    third_party_sign_in: bindings,
    tunnels,
    domains,
    orders,
    invoices,
    balance_ledger: user.ledger,
    tickets,
    notices,
    webhooks,
    deletion,
  };
  return {
    body: JSON.stringify(data, null, 2),
    name: `burrow-export-${uid}-${shanghaiDate(now)}.json`,
    // JSON under its own +json type: the console's client reads a plain application/json answer as
    // the {code,msg,data} envelope, not as a file
    type: "application/vnd.burrow.export+json; charset=utf-8",
  };
}
