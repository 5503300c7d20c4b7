import type { UserInfo } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import type { EventBus } from "../../shared/events";
import { EventedCache } from "../../shared/loading-cache";
import { presentUserInfo } from "./users.presenter";
import { findUserByUid } from "./users.repository";

/** Entries expire after about this long (±25%) even without an event: a lost pub/sub message heals. */
const TTL_MS = 60_000;

/**
 * Each user as GET /user/userInfo shows them (which carries the role and status authentication
 * checks), by uid: every authenticated request reads it, so it is kept in memory and dropped on
 * "user.changed", which every write of the users table announces after its commit (test/change-events).
 * No password hash is held, only whether there is one.
 */
export class UserInfoCache {
  private readonly cache: EventedCache<number, UserInfo | null>;

  constructor(db: Kysely<DB>, events: EventBus, max = 20_000) {
    this.cache = new EventedCache(
      async (uid) => {
        const row = await findUserByUid(db, uid);
        return row ? presentUserInfo(row) : null;
      },
      TTL_MS,
      max,
      events,
    );
    events.on("user.changed", ({ uid }) => this.cache.invalidate(uid));
  }

  /** The user, or null when there is none; the value is shared, never to be changed by the caller. */
  get(uid: number): UserInfo | null | Promise<UserInfo | null> {
    return this.cache.get(uid);
  }

  get size(): number {
    return this.cache.size;
  }
}
