import type { Kysely, Updateable } from "kysely";
import type { DB } from "../../db/schema";
import { nowIso } from "../../shared/time";
import type { NewUserRow, UserRow, UserTable } from "./users.table";

/** All Kysely code for users, their login history and balance ledger. */
export const findUserByPhone = (db: Kysely<DB>, phone: string): Promise<UserRow | undefined> =>
  db.selectFrom("users").selectAll().where("phone", "=", phone).executeTakeFirst();

export const findUserByUid = (db: Kysely<DB>, uid: number): Promise<UserRow | undefined> =>
  db.selectFrom("users").selectAll().where("uid", "=", uid).executeTakeFirst();

export const findUserByInviteCode = (db: Kysely<DB>, code: string): Promise<UserRow | undefined> =>
  db.selectFrom("users").selectAll().where("invite_code", "=", code).executeTakeFirst();

export async function insertUser(db: Kysely<DB>, row: NewUserRow): Promise<number> {
  const r = await db.insertInto("users").values(row).returning("uid").executeTakeFirstOrThrow();
  return r.uid;
}

/**
 * Changes a user's own columns (profile, role, status, password hash). The balance changes only
 * through changeBalance (balance.ts), so it is not settable here.
 */
export async function updateUserRow(
  db: Kysely<DB>,
  uid: number,
  set: Omit<Updateable<UserTable>, "uid" | "balance">,
): Promise<void> {
  if (Object.keys(set).length === 0) return;
  await db.updateTable("users").set(set).where("uid", "=", uid).execute();
}

export async function recordLogin(db: Kysely<DB>, uid: number, ip: string, userAgent: string): Promise<void> {
  const now = nowIso();
  await db
    .insertInto("login_logs")
    .values({ uid, ip, user_agent: userAgent.slice(0, 300), created_at: now })
    .execute();
  await db.updateTable("users").set({ last_login_at: now }).where("uid", "=", uid).execute();
}

export async function listLoginLogs(db: Kysely<DB>, uid: number, page: number, size: number) {
  const [list, total] = await Promise.all([
    db
      .selectFrom("login_logs")
      .select(["id", "ip", "user_agent", "created_at"])
      .where("uid", "=", uid)
      .orderBy("id", "desc")
      .limit(size)
      .offset((page - 1) * size)
      .execute(),
    db
      .selectFrom("login_logs")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("uid", "=", uid)
      .executeTakeFirstOrThrow(),
  ]);
  return { list, total: Number(total.n), page, size };
}

/** Name and phone of these users (unknown uids are left out), for other modules' operator lists. */
export async function userBriefs(
  db: Kysely<DB>,
  uids: number[],
): Promise<Map<number, { uid: number; nickname: string; phone: string }>> {
  if (!uids.length) return new Map();
  const rows = await db
    .selectFrom("users")
    .select(["uid", "nickname", "phone"])
    .where("uid", "in", [...new Set(uids)])
    .execute();
  return new Map(rows.map((r) => [r.uid, r]));
}
