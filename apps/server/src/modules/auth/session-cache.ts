import type { KeyObject } from "node:crypto";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import type { EventBus } from "../../shared/events";
import { EventedCache } from "../../shared/loading-cache";
import { findUserAccess } from "../users/users.repository";
import { TokenCache } from "./tokens";

/** A stored session as authentication needs it, with its user's role and status. */
export interface SessionEntry {
  uid: number;
  revoked: boolean;
  /** epoch ms */
  expiresMs: number;
  /**
   * Read with the session, so that what authorises a request (role, status) is never older than
   * the session's short TTL, even when an event from another process was lost.
   */
  role: number;
  status: number;
}

/**
 * Entries expire after about this long (±25%) even without an event. Short, because it is also
 * how late a revocation nobody could announce to this process takes effect: the command line's
 * reset-password without Redis (it runs in another process), or a message lost while only the
 * publishing side had lost Redis.
 */
export const SESSION_TTL_MS = 5_000;

/**
 * Verified tokens and stored sessions in memory, so that an authenticated request costs no
 * database round trip and no WebCrypto call. A session is dropped on "session.revoked" (announced
 * by revokeSessions after its commit: synchronously in this process, through Redis in the others);
 * while Redis is configured but unreachable the sessions are read from the database every time.
 */
export class SessionCache {
  readonly tokens: TokenCache;
  private readonly rows: EventedCache<string, SessionEntry | null>;

  constructor(
    db: Kysely<DB>,
    events: EventBus,
    key: KeyObject,
    opts: { maxSessions?: number; maxTokens?: number } = {},
  ) {
    this.tokens = new TokenCache(key, opts.maxTokens);
    this.rows = new EventedCache(
      async (sid) => {
        const row = await db
          .selectFrom("sessions")
          .select(["uid", "revoked_at", "expires_at"])
          .where("id", "=", sid)
          .executeTakeFirst();
        const user = row && (await findUserAccess(db, row.uid));
        return row && user
          ? {
              uid: row.uid,
              revoked: row.revoked_at !== null,
              expiresMs: Date.parse(row.expires_at),
              role: user.role,
              status: user.status,
            }
          : null;
      },
      SESSION_TTL_MS,
      opts.maxSessions ?? 50_000,
      events,
    );
    events.on("session.revoked", ({ uid, sid }) => {
      if (sid !== undefined) this.rows.invalidate(sid);
      // Every session of the user: a scan, but password changes and bans are rare.
      else this.rows.invalidateWhere((e) => e?.uid === uid);
    });
    // A change of role or status (ban, demotion) takes effect on the user's next request.
    events.on("user.changed", ({ uid }) => this.rows.invalidateWhere((e) => e?.uid === uid));
  }

  /** The stored session, or null when there is none. */
  session(sid: string): SessionEntry | null | Promise<SessionEntry | null> {
    return this.rows.get(sid);
  }

  stats(): { tokens: number; sessions: number } {
    return { tokens: this.tokens.size, sessions: this.rows.size };
  }
}
