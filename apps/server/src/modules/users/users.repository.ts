import { Role, UserStatus } from "@burrow/contract";
import { type Kysely, type RawBuilder, type SqlBool, sql, type Updateable } from "kysely";
import { trigramContains } from "../../db/dialect";
import type { DB } from "../../db/schema";
import { countRows, pageOf } from "../../shared/paging";
import { nowIso } from "../../shared/time";
import type { Tx } from "../../shared/tx";
import { hasPhone, NO_PHONE_PREFIX, shownPhone } from "./users.presenter";
import type { NewUserRow, UserRow, UserTable } from "./users.table";

/** All Kysely code for users, their login history and balance ledger. */
export const findUserByPhone = (db: Kysely<DB>, phone: string): Promise<UserRow | undefined> =>
  db.selectFrom("users").selectAll().where("phone", "=", phone).executeTakeFirst();

export const findUserByUid = (db: Kysely<DB>, uid: number): Promise<UserRow | undefined> =>
  db.selectFrom("users").selectAll().where("uid", "=", uid).executeTakeFirst();

/**
 * A list filter naming a customer by uid and/or phone, as one uid: undefined when neither is
 * given, null when they match nobody (an unknown phone, or a phone of another uid). The
 * placeholder of an account without a phone is no phone: it matches nobody.
 */
export async function userFilter(
  db: Kysely<DB>,
  q: { uid?: number; phone?: string },
): Promise<number | undefined | null> {
  if (!q.phone) return q.uid;
  if (!hasPhone(q.phone)) return null;
  const u = await findUserByPhone(db, q.phone);
  return !u || (q.uid && q.uid !== u.uid) ? null : u.uid;
}

/** What authorises a user's requests: their role and status. */
export const findUserAccess = (db: Kysely<DB>, uid: number): Promise<{ role: number; status: number } | undefined> =>
  db.selectFrom("users").select(["role", "status"]).where("uid", "=", uid).executeTakeFirst();

/** The customer's frp access token (the launch module binds its token to it), or undefined. */
export const frpTokenOf = async (db: Kysely<DB>, uid: number): Promise<string | undefined> =>
  (await db.selectFrom("users").select("frp_token").where("uid", "=", uid).executeTakeFirst())?.frp_token;

/** The active Managers' uids: who receives operator notices (notices module). */
export const activeManagerUids = async (db: Kysely<DB>): Promise<number[]> =>
  (
    await db
      .selectFrom("users")
      .select("uid")
      .where("role", "=", Role.Manager)
      .where("status", "=", UserStatus.Active)
      .orderBy("uid")
      .execute()
  ).map((r) => r.uid);

export const findUserByInviteCode = (db: Kysely<DB>, code: string): Promise<UserRow | undefined> =>
  db.selectFrom("users").selectAll().where("invite_code", "=", code).executeTakeFirst();

export async function insertUser(db: Tx, row: NewUserRow): Promise<number> {
  const r = await db.insertInto("users").values(row).returning("uid").executeTakeFirstOrThrow();
  db.changes.emit("user.changed", { uid: r.uid });
  return r.uid;
}

/**
 * Changes a user's own columns (profile, role, status, password hash). The balance changes only
 * through changeBalance (balance.ts), so it is not settable here.
 */
export async function updateUserRow(
  db: Tx,
  uid: number,
  set: Omit<Updateable<UserTable>, "uid" | "balance">,
): Promise<void> {
  if (Object.keys(set).length === 0) return;
  await db.updateTable("users").set(set).where("uid", "=", uid).execute();
  db.changes.emit("user.changed", { uid });
}

/** How a session was opened, for the login history (password when not said). */
export interface LoginMethod {
  method: "password" | "register" | "sms" | "oidc" | "passkey";
  /** the provider's display name (oidc, or sms while linking one) */
  provider?: string;
}

export async function recordLogin(
  db: Tx,
  uid: number,
  ip: string,
  userAgent: string,
  how: LoginMethod = { method: "password" },
): Promise<void> {
  const now = nowIso();
  await db
    .insertInto("login_logs")
    .values({
      uid,
      ip,
      user_agent: userAgent.slice(0, 300),
      method: how.method,
      provider: how.provider ?? null,
      created_at: now,
    })
    .execute();
  await db.updateTable("users").set({ last_login_at: now }).where("uid", "=", uid).execute();
  db.changes.emit("user.changed", { uid });
}

export function listLoginLogs(db: Kysely<DB>, uid: number, page: number, size: number) {
  const sel = db.selectFrom("login_logs").where("uid", "=", uid);
  return pageOf(
    page,
    size,
    (limit, offset) =>
      sel
        .select(["id", "ip", "user_agent", "method", "provider", "created_at"])
        .orderBy("id", "desc")
        .limit(limit)
        .offset(offset)
        .execute(),
    () => countRows(sel),
  );
}

/**
 * An operator list's phone search, on a query over users: the phone contains `text`, literally,
 * from the trigram index users_phone_fts / users_phone_trgm (migration
 * 2026-11-25T06-00_phone_search; trigramContains). An account without a phone never matches: its
 * placeholder's random tail could contain any text.
 */
export function phoneContains(db: object, text: string): RawBuilder<SqlBool> {
  const contains = trigramContains(db, "users.phone", text, {
    table: "users_phone_fts",
    column: "phone",
    key: "users.uid",
  });
  return sql<SqlBool>`(${contains} and ${sql.ref("users.phone")} not like ${`${NO_PHONE_PREFIX}%`})`;
}

/**
 * The uids of the users whose phone contains `text` (phoneContains), as a subquery: another
 * table's list filters its rows by their owner's phone with `uid in (…)`, and neither the list nor
 * its count joins users for it (a join of 300k tunnels to the users took seconds).
 */
export const uidsWithPhoneContaining = (db: Kysely<DB>, text: string) =>
  db.selectFrom("users").select("users.uid").where(phoneContains(db, text));

/**
 * Name and phone to show (shownPhone: "" while none is bound) of these users (unknown uids are
 * left out), for other modules' operator lists.
 */
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
  return new Map(rows.map((r) => [r.uid, { ...r, phone: shownPhone(r.phone) }]));
}

/** The customers who signed up with `uid`'s invite code, with their sign-up times (affiliate). */
export const listInvitees = (db: Kysely<DB>, uid: number): Promise<{ uid: number; created_at: string }[]> =>
  db.selectFrom("users").select(["uid", "created_at"]).where("referrer_uid", "=", uid).orderBy("uid").execute();

/**
 * Phone numbers to show (shownPhone: "" while none is bound) by uid, for operator lists that name
 * whose row it is (unknown uids are left out).
 */
export async function shownPhonesOf(db: Kysely<DB>, uids: number[]): Promise<Map<number, string>> {
  if (uids.length === 0) return new Map();
  const rows = await db
    .selectFrom("users")
    .select(["uid", "phone"])
    .where("uid", "in", [...new Set(uids)])
    .execute();
  return new Map(rows.map((r) => [r.uid, shownPhone(r.phone)]));
}
