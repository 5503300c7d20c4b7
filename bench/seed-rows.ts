// Rows the benchmarks seed directly (thousands at a time, faster than the API): one customer, their
// subscription to a plan and a tcp tunnel, with every other column at its everyday value.
import type { Kysely } from "kysely";
import type { DB } from "../apps/server/src/db/schema";
import { endlessSubscriptionRow } from "../apps/server/src/modules/subscriptions/default-plan";
import { tunnelRow } from "../apps/server/test/frp-fixtures";

/** An active customer number `i`; `tag` keeps phones, tokens and invite codes apart per bench. */
export const benchUser = (tag: { phonePrefix: string; name: string }, i: number, now: string) => ({
  phone: `${tag.phonePrefix}${String(i).padStart(8, "0")}`,
  password_hash: "x",
  role: 1,
  status: 1,
  ban_reason: null,
  nickname: `${tag.name}${i}`,
  frp_token: `${tag.name}-token-${i}`,
  invite_code: `${tag.name.toUpperCase()}${i}`,
  referrer_uid: null,
  real_name: null,
  id_number_masked: null,
  created_at: now,
  last_login_at: null,
});

/** An offline tcp tunnel to local port 22 (the server tests' row). */
export const benchTunnel = (t: { uid: number; node_id: number; tun_name: string; remote_port: number }, now: string) =>
  tunnelRow(t, now);

/**
 * Inserts `count` bench customers (`tag`, see benchUser), each subscribed to the seeded free plan
 * with `quota` bytes, 500 a statement; `onBatch` gets each batch's rows and the number of its first
 * customer, to add their tunnels.
 */
export async function seedBenchCustomers(
  db: Kysely<DB>,
  opts: { tag: { phonePrefix: string; name: string }; count: number; quota: number; now: string },
  onBatch: (rows: { uid: number; frp_token: string }[], first: number) => Promise<void>,
): Promise<void> {
  const plan = await db
    .selectFrom("plans")
    .select(["id", "type"])
    .where("is_default", "=", 1)
    .executeTakeFirstOrThrow();
  for (let i = 0; i < opts.count; i += 500) {
    const batch = Array.from({ length: Math.min(500, opts.count - i) }, (_, k) => benchUser(opts.tag, i + k, opts.now));
    const rows = await db.insertInto("users").values(batch).returning(["uid", "frp_token"]).execute();
    await db
      .insertInto("subscriptions")
      .values(rows.map((r) => endlessSubscriptionRow(r.uid, plan, opts.quota, opts.now)))
      .execute();
    await onBatch(rows, i);
  }
}
