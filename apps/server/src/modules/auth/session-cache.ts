import type { KeyObject } from "node:crypto";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import type { EventBus } from "../../shared/events";
import { EventedCache } from "../../shared/loading-cache";
import { findUserAccess } from "../users/users.repository";
import { TokenCache } from "./tokens";

/** How stale a session's last_seen_at may grow while it is in use (the session list shows it). */
export const LAST_SEEN_EVERY_MS = 5 * 60_000;

/**
 * Refreshes last_seen_at when it is older than LAST_SEEN_EVERY_MS. Called where the session row is
 * read from the database anyway (at most every SESSION_TTL_MS per process while it is in use), so
 * the list's "last seen" costs one write per session every few minutes, off the request's path.
 */
function touchSession(db: Kysely<DB>, sid: string, lastSeen: string): void {
  const now = Date.now();
  if (now - Date.parse(lastSeen) < LAST_SEEN_EVERY_MS) return;
  db.updateTable("sessions")
    .set({ last_seen_at: new Date(now).toISOString() })
    .where("id", "=", sid)
    .execute()
    // Only a display: a failed write (the database going away at shutdown) changes nothing else.
    .catch(() => undefined);
}

/** A stored session as authentication needs it. */
export interface SessionEntry {
  uid: number;
  revoked: boolean;
  /** epoch ms */
  expiresMs: number;
  /** null: a console session; "appeal": a banned account's appeal session */
  scope: string | null;
}

/**
 * What authorises a user's requests, kept as briefly as sessions, so that a demotion or ban whose
 * event from another process was lost still holds within SESSION_TTL_MS.
 */
export interface UserAccess {
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
  private readonly users: EventedCache<number, UserAccess | null>;

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
          .select(["uid", "revoked_at", "expires_at", "scope", "created_at", "last_seen_at"])
          .where("id", "=", sid)
          .executeTakeFirst();
        if (row && row.revoked_at === null) touchSession(db, sid, row.last_seen_at ?? row.created_at);
        return row
          ? { uid: row.uid, revoked: row.revoked_at !== null, expiresMs: Date.parse(row.expires_at), scope: row.scope }
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
    this.users = new EventedCache(
      async (uid) => (await findUserAccess(db, uid)) ?? null,
      SESSION_TTL_MS,
      opts.maxSessions ?? 50_000,
      events,
    );
    // A change of role or status (ban, demotion) takes effect on the user's next request.
    events.on("user.changed", ({ uid }) => this.users.invalidate(uid));
  }

  /** The stored session, or null when there is none. */
  session(sid: string): SessionEntry | null | Promise<SessionEntry | null> {
    return this.rows.get(sid);
  }

  /** The user's role and status, or null when there is no such user. */
  access(uid: number): UserAccess | null | Promise<UserAccess | null> {
    return this.users.get(uid);
  }

  stats(): { tokens: number; sessions: number } {
    return { tokens: this.tokens.size, sessions: this.rows.size };
  }
}
