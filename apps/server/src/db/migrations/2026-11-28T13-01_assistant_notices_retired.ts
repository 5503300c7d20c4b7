import type { Kysely } from "kysely";

/**
 * The assistant no longer turns "quota.80" and "auth.new_device" into conversations: the notice
 * (notices.deliver) is the one channel of both. Deliveries of its two retired handlers still
 * waiting would otherwise fail "no handler" six times and be listed dead on 事件投递; they are
 * closed as done instead (the notice of the same event was delivered by its own handler).
 * Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db
    .updateTable("outbox_deliveries")
    .set({ status: "done", last_error: null, holder: null, lease_until: null, updated_at: new Date().toISOString() })
    .where("handler", "in", ["assistant.quota-notice", "assistant.new-device-notice"])
    .where("status", "<>", "done")
    .execute();
}

export async function down(): Promise<void> {
  // Nothing to restore: the handlers are gone.
}
