import { ErrorCode, UserStatus } from "@burrow/contract";
import type { FastifyRequest } from "fastify";
import { SignJWT } from "jose";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { AppError } from "../../shared/errors";
import { randomToken } from "../../shared/ids";
import { nowIso } from "../../shared/time";
import type { Tx } from "../../shared/tx";

export interface AuthUser {
  uid: number;
  role: number;
  sid: string;
}

const sessionError = (code: number, msg: string) => new AppError(code, 401, msg);

/** Creates a stored session and signs its token (HS256: uid in `sub`, session id in `sid`). */
export async function issueSession(
  ctx: AppContext,
  uid: number,
  meta: { ip: string; userAgent: string },
  db: Kysely<DB> = ctx.db,
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

/** Reads the Bearer token, checks signature, expiry, the stored session and the user's status. */
export async function authenticate(ctx: AppContext, req: FastifyRequest): Promise<AuthUser> {
  const header = req.headers.authorization;
  const token = header?.startsWith("Bearer ") ? header.slice(7).trim() : "";
  if (!token) throw sessionError(ErrorCode.TokenMissing, "请先登录");
  const claims = ctx.sessions.tokens.verify(token);
  if (claims === "expired") throw sessionError(ErrorCode.TokenExpired, "登录已过期，请重新登录");
  if (claims === "invalid") throw sessionError(ErrorCode.TokenMissing, "登录凭证无效，请重新登录");
  const { uid, sid } = claims;
  // Both from memory once warm (short-lived entries); read together when either is not.
  const s = ctx.sessions.session(sid);
  const a = ctx.sessions.access(uid);
  const [session, access] = s instanceof Promise || a instanceof Promise ? await Promise.all([s, a]) : [s, a];
  if (!session || session.uid !== uid || session.revoked || access?.status !== UserStatus.Active) {
    throw sessionError(ErrorCode.SessionRevoked, "登录状态已失效，请重新登录");
  }
  if (session.expiresMs <= Date.now()) throw sessionError(ErrorCode.TokenExpired, "登录已过期，请重新登录");
  return { uid, role: access.role, sid };
}

/**
 * Revokes one session (`sid`, of user `uid`), or every session of a user (password change or
 * reset, ban), and announces it ("session.revoked", after the commit) so that no process's
 * session cache accepts them any more.
 */
export async function revokeSessions(db: Tx, where: { uid: number; sid?: string }): Promise<void> {
  let q = db
    .updateTable("sessions")
    .set({ revoked_at: nowIso() })
    .where("revoked_at", "is", null)
    .where("uid", "=", where.uid);
  if (where.sid !== undefined) q = q.where("id", "=", where.sid);
  await q.execute();
  db.changes.emit("session.revoked", where.sid !== undefined ? { uid: where.uid, sid: where.sid } : { uid: where.uid });
}
