import { type BannedData, ErrorCode, type Scope, type TokenResult, UserStatus } from "@burrow/contract";
import { SignJWT } from "jose";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import type { CredentialKind, Principal } from "../../shared/auth";
import { AppError } from "../../shared/errors";
import { randomToken } from "../../shared/ids";
import { nowIso } from "../../shared/time";
import type { Tx } from "../../shared/tx";
import { findUserByUid } from "../users/users.repository";

/** The caller of an authenticated route (kept under its old name for the modules that use it). */
export type AuthUser = Principal;

/** The session kind's name on ctx.auth (Principal.kind). */
export const SESSION_KIND = "session";

/** What an appeal session grants: the ban appeal's endpoints, nothing else. */
const APPEAL_SCOPES: ReadonlySet<Scope> = new Set<Scope>(["appeal"]);

const sessionError = (code: number, msg: string) => new AppError(code, 401, msg);

/**
 * 403/30005 naming the ban and its reason; `appeal` (a sign-in with the right password) is the
 * appeal session the client may use for the ban appeal's endpoints.
 */
export function bannedError(reason: string | null, appeal?: TokenResult): AppError {
  const data: BannedData = { ban_reason: reason, ...(appeal && { appeal }) };
  return new AppError(ErrorCode.AccountBanned, 403, `账号已被封禁${reason ? `：${reason}` : ""}`, undefined, data);
}

/**
 * Creates a stored session and signs its token (HS256: uid in `sub`, session id in `sid`).
 * `scope` "appeal" makes it a banned account's appeal session (see authenticateSession).
 */
export async function issueSession(
  ctx: AppContext,
  uid: number,
  meta: { ip: string; userAgent: string },
  db: Kysely<DB> = ctx.db,
  scope: "appeal" | null = null,
): Promise<{ token: string; expires_at: string }> {
  const sid = randomToken(18);
  const now = Date.now();
  const expires = new Date(now + ctx.config.JWT_TTL * 1000);
  await db
    .insertInto("sessions")
    .values({
      id: sid,
      uid,
      ip: meta.ip,
      user_agent: meta.userAgent.slice(0, 300),
      created_at: new Date(now).toISOString(),
      expires_at: expires.toISOString(),
      revoked_at: null,
      scope,
      last_seen_at: null,
    })
    .execute();
  const token = await new SignJWT({ sid })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(String(uid))
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor(expires.getTime() / 1000))
    .sign(ctx.jwtKey);
  return { token, expires_at: expires.toISOString() };
}

/** The session JWT as a credential kind of ctx.auth (registered by buildApp). */
export function sessionCredential(ctx: AppContext): CredentialKind {
  return {
    name: SESSION_KIND,
    // Three base64url segments; whatever else is presented belongs to another kind (or none).
    claims: (bearer) => bearer.split(".", 4).length === 3,
    authenticate: (bearer) => authenticateSession(ctx, bearer),
  };
}

/**
 * Checks a session token's signature, expiry, the stored session and the user's status. A banned
 * user is told so with the reason (30005), unless the session is their appeal session, which
 * grants the appeal scope only and ends when the ban does.
 */
async function authenticateSession(ctx: AppContext, token: string): Promise<Principal> {
  const claims = ctx.sessions.tokens.verify(token);
  if (claims === "expired") throw sessionError(ErrorCode.TokenExpired, "登录已过期，请重新登录");
  if (claims === "invalid") throw sessionError(ErrorCode.TokenMissing, "登录凭证无效，请重新登录");
  const { uid, sid } = claims;
  // Both from memory once warm (short-lived entries); read together when either is not.
  const s = ctx.sessions.session(sid);
  const a = ctx.sessions.access(uid);
  const [session, access] = s instanceof Promise || a instanceof Promise ? await Promise.all([s, a]) : [s, a];
  if (!session || session.uid !== uid) throw sessionError(ErrorCode.SessionRevoked, "登录状态已失效，请重新登录");
  if (session.expiresMs <= Date.now()) throw sessionError(ErrorCode.TokenExpired, "登录已过期，请重新登录");
  if (access?.status === UserStatus.Banned) {
    if (session.scope === "appeal" && !session.revoked)
      return { uid, role: access.role, kind: SESSION_KIND, credentialId: sid, scopes: APPEAL_SCOPES };
    // The ban revoked the session; its holder still learns why (the signature proves it is theirs).
    throw bannedError((await findUserByUid(ctx.db, uid))?.ban_reason ?? null);
  }
  if (session.revoked || access?.status !== UserStatus.Active)
    throw sessionError(ErrorCode.SessionRevoked, "登录状态已失效，请重新登录");
  // An appeal session of an account no longer banned: the limited mode is over, sign in again.
  if (session.scope !== null) throw sessionError(ErrorCode.SessionRevoked, "账号已解除封禁，请重新登录");
  return { uid, role: access.role, kind: SESSION_KIND, credentialId: sid, scopes: "all" };
}

/**
 * The console caller of a request handled outside defineRoute (the OIDC bind callback): any
 * credential granting "console".
 */
export function authenticate(ctx: AppContext, req: { headers: { authorization?: string } }): Promise<Principal> {
  return ctx.auth.require(req.headers.authorization, "console");
}

/**
 * Revokes one session (`sid`, of user `uid`), or every session of a user (password change or
 * reset, ban) but `except` when given (sign out the other devices), and announces it
 * ("session.revoked", after the commit) so that no process's session cache accepts them any more.
 * @returns how many sessions it revoked
 */
export async function revokeSessions(db: Tx, where: { uid: number; sid?: string; except?: string }): Promise<number> {
  let q = db
    .updateTable("sessions")
    .set({ revoked_at: nowIso() })
    .where("revoked_at", "is", null)
    .where("uid", "=", where.uid);
  if (where.sid !== undefined) q = q.where("id", "=", where.sid);
  if (where.except !== undefined) q = q.where("id", "!=", where.except);
  const r = await q.executeTakeFirst();
  db.changes.emit("session.revoked", where.sid !== undefined ? { uid: where.uid, sid: where.sid } : { uid: where.uid });
  return Number(r.numUpdatedRows);
}
