import type { Kysely } from "kysely";
import type { DB } from "../db/schema";
import { audit } from "../modules/audit/audit";
import { hashPassword } from "../modules/auth/passwords";
import { revokeSessions } from "../modules/auth/sessions";
import { randomToken } from "../shared/ids";

/** The account a reset names does not exist. */
export class UnknownAccountError extends Error {}

/**
 * The operator's way back in (`npm run admin -- reset-password <phone>`): a new random password
 * for the account, every one of its sessions revoked (whoever had the old password is signed out),
 * an audit row; the password is returned to be printed once and is stored only as its hash.
 */
export async function resetPassword(db: Kysely<DB>, phone: string): Promise<{ uid: number; password: string }> {
  const password = randomToken(12);
  const passwordHash = await hashPassword(password);
  const uid = await db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom("users").select("uid").where("phone", "=", phone).executeTakeFirst();
    if (!user) throw new UnknownAccountError(`No account has the phone number ${phone}.`);
    await trx.updateTable("users").set({ password_hash: passwordHash }).where("uid", "=", user.uid).execute();
    await revokeSessions(trx, { uid: user.uid });
    // No operator signed in: the server's command line did it.
    await audit(trx, { operatorUid: 0, action: "user.resetPassword", target: `user:${user.uid}`, ip: "cli" });
    return user.uid;
  });
  return { uid, password };
}
