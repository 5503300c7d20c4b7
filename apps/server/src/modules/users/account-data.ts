import { UserStatus } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import { randomToken } from "../../shared/ids";
import type { Tx } from "../../shared/tx";
import { changeBalance } from "./balance";
import { NO_PHONE_PREFIX } from "./users.presenter";
import { updateUserRow } from "./users.repository";

/* The users module's part of a customer's data export and of an account's erasure (docs/leaving.md). */

/** The profile, sign-in history and balance ledger, for the export: no password hash, no frp token. */
export async function userDataOf(db: Kysely<DB>, uid: number) {
  const [profile, logins, ledger] = await Promise.all([
    db
      .selectFrom("users")
      .select([
        "uid",
        "phone",
        "nickname",
        "role",
        "status",
        "balance",
        "invite_code",
        "referrer_uid",
        "verify_status",
        "real_name",
        "id_number_masked",
        "created_at",
        "last_login_at",
      ])
      .where("uid", "=", uid)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("login_logs")
      .select(["ip", "user_agent", "method", "provider", "created_at"])
      .where("uid", "=", uid)
      .orderBy("id")
      .execute(),
    db
      .selectFrom("balance_ledger")
      .select(["change", "balance_before", "balance_after", "reason", "order_id", "created_at"])
      .where("uid", "=", uid)
      .orderBy("id")
      .execute(),
  ]);
  return { profile, logins, ledger };
}

/** The phone column of an erased account: never a number, so the number is free to register again. */
export const erasedPhone = (uid: number) => `${NO_PHONE_PREFIX}erased-${uid}`;

/**
 * Erases the account's personal data (in the erasure's transaction): phone (freed), name, real
 * name, avatar, password and frp token (no credential of it works again), the sign-in history; the
 * balance left, forfeited by the customer's request, leaves with a ledger line. The uid stays as the
 * pseudonym its orders, invoices and ledger keep.
 */
export async function eraseUserData(trx: Tx, uid: number): Promise<void> {
  const { balance } = await trx.selectFrom("users").select("balance").where("uid", "=", uid).executeTakeFirstOrThrow();
  if (Number(balance) > 0)
    await changeBalance(trx, { uid, change: -Number(balance), reason: "账号注销，余额按申请时的确认作废" });
  await trx.deleteFrom("login_logs").where("uid", "=", uid).execute();
  await updateUserRow(trx, uid, {
    phone: erasedPhone(uid),
    // not an argon2 hash: no password verifies against it
    password_hash: "!erased",
    nickname: `已注销用户${uid}`,
    avatar: "",
    real_name: null,
    id_number_masked: null,
    verify_status: 0,
    frp_token: randomToken(),
    status: UserStatus.Erased,
    ban_reason: null,
  });
}
