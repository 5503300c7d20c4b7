import { ErrorCode, UserStatus } from "@burrow/contract";
import type { FastifyRequest } from "fastify";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { AppError } from "../../http/errors";
import { randomToken } from "../../shared/ids";
import { nowIso } from "../../shared/time";

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
  let sub: string | undefined;
  let sid: unknown;
  try {
    const { payload } = await jwtVerify(token, ctx.jwtKey, { algorithms: ["HS256"] });
    sub = payload.sub;
    sid = payload.sid;
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw sessionError(ErrorCode.TokenExpired, "登录已过期，请重新登录");
    throw sessionError(ErrorCode.TokenMissing, "登录凭证无效，请重新登录");
  }
  const uid = Number(sub);
  if (!Number.isInteger(uid) || typeof sid !== "string") {
    throw sessionError(ErrorCode.TokenMissing, "登录凭证无效，请重新登录");
  }
  const row = await ctx.db
    .selectFrom("sessions")
    .innerJoin("users", "users.uid", "sessions.uid")
    .select(["sessions.revoked_at", "sessions.expires_at", "users.role", "users.status"])
    .where("sessions.id", "=", sid)
    .where("sessions.uid", "=", uid)
    .executeTakeFirst();
  if (!row || row.revoked_at || row.status !== UserStatus.Active) {
    throw sessionError(ErrorCode.SessionRevoked, "登录状态已失效，请重新登录");
  }
  if (row.expires_at <= nowIso()) throw sessionError(ErrorCode.TokenExpired, "登录已过期，请重新登录");
  return { uid, role: row.role, sid };
}

/** Revokes one session, or every session of a user (password change, ban). */
export async function revokeSessions(db: Kysely<DB>, where: { sid: string } | { uid: number }): Promise<void> {
  let q = db.updateTable("sessions").set({ revoked_at: nowIso() }).where("revoked_at", "is", null);
  q = "sid" in where ? q.where("id", "=", where.sid) : q.where("uid", "=", where.uid);
  await q.execute();
}
