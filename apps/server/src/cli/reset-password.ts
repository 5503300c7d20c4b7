import type { Kysely } from "kysely";
import type { DB } from "../db/schema";
import { audit } from "../modules/audit/audit";
import { hashPassword } from "../modules/auth/passwords";
import { revokeSessions } from "../modules/auth/sessions";
import { updateUserRow } from "../modules/users/users.repository";
import type { EventBus } from "../shared/events";
import { randomToken } from "../shared/ids";
import { transact } from "../shared/tx";

/** The account a reset names does not exist. */
export class UnknownAccountError extends Error {}

/**
 * The operator's way back in (`npm run admin -- reset-password <phone>`): a new random password
 * for the account, every one of its sessions revoked (whoever had the old password is signed out),
 * an audit row; the password is returned to be printed once and is stored only as its hash.
 * The revocation is announced on `events` after the commit: with Redis it reaches the running
 * servers' session caches at once; without Redis nothing can reach them from this process, and
 * they notice within their session TTL (SESSION_TTL_MS, a few seconds).
 */
export async function resetPassword(
  ctx: { db: Kysely<DB>; events: EventBus },
  phone: string,
): Promise<{ uid: number; password: string }> {
  const password = randomToken(12);
  const passwordHash = await hashPassword(password);
  const uid = await transact(ctx, async (trx) => {
    const user = await trx.selectFrom("users").select("uid").where("phone", "=", phone).executeTakeFirst();
    if (!user) throw new UnknownAccountError(`No account has the phone number ${phone}.`);
    await updateUserRow(trx, user.uid, { password_hash: passwordHash });
    await revokeSessions(trx, { uid: user.uid });
    // No operator signed in: the server's command line did it.
    await audit(trx, { operatorUid: 0, action: "user.resetPassword", target: `user:${user.uid}`, ip: "cli" });
    return user.uid;
  });
  return { uid, password };
}
