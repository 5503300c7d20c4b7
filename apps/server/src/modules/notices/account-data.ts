import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import type { Tx } from "../../shared/tx";

/* The notices module's part of a customer's data export and of an account's erasure (docs/leaving.md). */

/** The notice e-mail address and the channels chosen per event, for the export: no verification code. */
export async function noticesDataOf(db: Kysely<DB>, uid: number) {
  const [email, prefs] = await Promise.all([
    db.selectFrom("notice_emails").select(["email", "verified_at"]).where("uid", "=", uid).executeTakeFirst(),
    db.selectFrom("notice_prefs").select(["type", "channels", "updated_at"]).where("uid", "=", uid).execute(),
  ]);
  return { email: email ?? null, prefs };
}

/** Erases the account's notices, their deliveries (they quote its tunnels and orders), its choices and its e-mail address. */
export async function eraseNoticesOf(trx: Tx, uid: number): Promise<void> {
  await trx.deleteFrom("notice_deliveries").where("uid", "=", uid).execute();
  await trx.deleteFrom("notices").where("uid", "=", uid).execute();
  await trx.deleteFrom("notice_prefs").where("uid", "=", uid).execute();
  await trx.deleteFrom("notice_emails").where("uid", "=", uid).execute();
}
