import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import type { Tx } from "../../shared/tx";
import { deviceName } from "./devices";
import { revokeSessions } from "./sessions";

/* The auth module's part of a customer's data export and of an account's erasure (docs/leaving.md). */

/** Sessions (device, address, times), two-step sign-in and passkeys' names and dates, for the export: no secrets or keys. */
export async function authDataOf(db: Kysely<DB>, uid: number) {
  const [sessions, totp, passkeys] = await Promise.all([
    db
      .selectFrom("sessions")
      .select(["ip", "user_agent", "created_at", "last_seen_at", "expires_at", "revoked_at"])
      .where("uid", "=", uid)
      .orderBy("created_at")
      .execute(),
    db.selectFrom("totp_factors").select("enabled_at").where("uid", "=", uid).executeTakeFirst(),
    db
      .selectFrom("passkeys")
      .select(["name", "created_at", "last_used_at"])
      .where("uid", "=", uid)
      .orderBy("id")
      .execute(),
  ]);
  return {
    sessions: sessions.map((s) => ({ ...s, device: deviceName(s.user_agent) })),
    totp_enabled_at: totp?.enabled_at ?? null,
    passkeys,
  };
}

/** When the session `sid` was signed in (an export needs a recent sign-in), or null. */
export async function sessionSignedInAt(db: Kysely<DB>, sid: string): Promise<string | null> {
  const row = await db.selectFrom("sessions").select("created_at").where("id", "=", sid).executeTakeFirst();
  return row?.created_at ?? null;
}

/**
 * Erases the account's sign-in data (in the erasure's transaction): every session is revoked
 * (announced, so no cache keeps one) and then deleted with its address and user agent; the TOTP
 * factor, recovery codes, passkeys (and their open challenges) and remembered devices go.
 */
export async function eraseAuthData(trx: Tx, uid: number): Promise<void> {
  await revokeSessions(trx, { uid });
  await trx.deleteFrom("sessions").where("uid", "=", uid).execute();
  await trx.deleteFrom("totp_factors").where("uid", "=", uid).execute();
  await trx.deleteFrom("recovery_codes").where("uid", "=", uid).execute();
  await trx.deleteFrom("passkeys").where("uid", "=", uid).execute();
  await trx.deleteFrom("passkey_challenges").where("uid", "=", uid).execute();
  await trx.deleteFrom("known_devices").where("uid", "=", uid).execute();
}
