import {
  type NoticeChannel,
  type NoticeEventSpec,
  NoticeEvents,
  type NoticeEventType,
  noticeChannelsOf,
} from "@burrow/contract";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";

/** The channels one person has on for one event type: "site" always, the rest as chosen (or the defaults). */
export function channelsFrom(type: NoticeEventType, stored: string | undefined): NoticeChannel[] {
  const spec: NoticeEventSpec = NoticeEvents[type];
  const chosen = stored === undefined ? spec.defaults : (stored.split(",").filter(Boolean) as NoticeChannel[]);
  const allowed = noticeChannelsOf(type);
  return allowed.filter((c) => c === "site" || chosen.includes(c));
}

/** Each person's channels for `type`, by uid. */
export async function channelsOf(
  db: Kysely<DB>,
  uids: readonly number[],
  type: NoticeEventType,
): Promise<Map<number, NoticeChannel[]>> {
  if (!uids.length) return new Map();
  const rows = await db
    .selectFrom("notice_prefs")
    .select(["uid", "channels"])
    .where("type", "=", type)
    .where("uid", "in", uids)
    .execute();
  const stored = new Map(rows.map((r) => [r.uid, r.channels]));
  return new Map(uids.map((uid) => [uid, channelsFrom(type, stored.get(uid))]));
}

/** A person's verified notice e-mail address, or null. */
export async function verifiedEmailOf(db: Kysely<DB>, uid: number): Promise<string | null> {
  const row = await db
    .selectFrom("notice_emails")
    .select(["email", "verified_at"])
    .where("uid", "=", uid)
    .executeTakeFirst();
  return row?.verified_at ? row.email : null;
}
