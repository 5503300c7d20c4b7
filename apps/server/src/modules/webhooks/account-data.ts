import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import type { Tx } from "../../shared/tx";

/* The webhooks module's part of a customer's data export and of an account's erasure (docs/leaving.md). */

/** The customer's webhook endpoints, for the export: never the signing secret. */
export function webhooksDataOf(db: Kysely<DB>, uid: number) {
  return db
    .selectFrom("webhook_endpoints")
    .select(["url", "description", "events", "status", "created_at"])
    .where("uid", "=", uid)
    .orderBy("id")
    .execute();
}

/** Erases the account's webhook endpoints and their delivery log (bodies and the receiver's answers). */
export async function eraseWebhooksOf(trx: Tx, uid: number): Promise<void> {
  await trx.deleteFrom("webhook_deliveries").where("uid", "=", uid).execute();
  await trx.deleteFrom("webhook_endpoints").where("uid", "=", uid).execute();
}
