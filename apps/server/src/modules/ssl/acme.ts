import * as acme from "acme-client";
import type { AppContext } from "../../context";
import { openKey, sealKey } from "./secret";

/** ACME_DIRECTORY's short names. */
const NAMED: Record<string, string> = {
  letsencrypt: acme.directory.letsencrypt.production,
  "letsencrypt-staging": acme.directory.letsencrypt.staging,
};

/** The directory URL in force, with the name the page shows. */
export function acmeDirectory(ctx: AppContext): { name: string; directory: string; staging: boolean } {
  const v = ctx.config.ACME_DIRECTORY;
  const directory = NAMED[v] ?? v;
  const name = NAMED[v] ? v : new URL(v).host;
  return { name, directory, staging: v === "letsencrypt-staging" };
}

const ACCOUNT_PURPOSE = (directory: string) => `acme-account:${directory}`;

/**
 * A client on Burrow's account at `directory`: the account key is made and registered once per
 * directory (terms agreed, ACME_EMAIL as contact) and kept encrypted in ssl_acme_accounts; two
 * processes racing at the first use both register, the first row stays (ACME answers the same
 * account for the same key; a second key is just an unused account).
 */
export async function acmeClient(ctx: AppContext, directory: string): Promise<acme.Client> {
  const row = await ctx.db
    .selectFrom("ssl_acme_accounts")
    .selectAll()
    .where("directory", "=", directory)
    .executeTakeFirst();
  if (row) {
    const accountKey = await openKey(ctx, row.key_enc, ACCOUNT_PURPOSE(directory));
    return new acme.Client({ directoryUrl: directory, accountKey, accountUrl: row.account_url, backoffAttempts: 3 });
  }
  const accountKey = (await acme.crypto.createPrivateEcdsaKey("P-256")).toString();
  const client = new acme.Client({ directoryUrl: directory, accountKey, backoffAttempts: 3 });
  await client.createAccount({
    termsOfServiceAgreed: true,
    ...(ctx.config.ACME_EMAIL && { contact: [`mailto:${ctx.config.ACME_EMAIL}`] }),
  });
  await ctx.db
    .insertInto("ssl_acme_accounts")
    .values({
      directory,
      key_enc: await sealKey(ctx, accountKey, ACCOUNT_PURPOSE(directory)),
      account_url: client.getAccountUrl(),
      created_at: new Date().toISOString(),
    })
    .onConflict((oc) => oc.column("directory").doNothing())
    .execute();
  return client;
}

/** A short reason from an ACME error (the CA's problem detail when there is one). */
export function acmeErrorText(err: unknown): string {
  const e = err as { message?: string; detail?: string };
  return (e?.detail ?? e?.message ?? String(err)).slice(0, 500);
}

export { acme };
