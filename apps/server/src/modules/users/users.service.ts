import {
  AVATAR_PATH,
  type ChangePasswordBody,
  type ChangePhoneBody,
  type UpdateInfoBody,
  type UserInfo,
} from "@burrow/contract";
import type { AppContext } from "../../context";
import { invalid, localDuplicated, notFound } from "../../http/errors";
import { randomToken } from "../../shared/ids";
import { checkPasswordLimited } from "../auth/auth.service";
import { revokeSessions } from "../auth/sessions";
import { consumeCode } from "../auth/sms";
import { presentUserInfo } from "./users.presenter";
import { findUserByPhone, findUserByUid } from "./users.repository";

export async function getUserInfo(ctx: AppContext, uid: number): Promise<UserInfo> {
  const user = await findUserByUid(ctx.db, uid);
  if (!user) throw notFound("用户");
  return presentUserInfo(user);
}

export async function updateInfo(ctx: AppContext, uid: number, body: UpdateInfoBody): Promise<UserInfo> {
  // Only this user's own upload, by its exact name: nothing that climbs out of the avatar folder
  // (`..`, encoded or not), no absolute URL, no other user's file.
  if (body.avatar !== undefined && body.avatar !== "" && AVATAR_PATH.exec(body.avatar)?.[1] !== String(uid)) {
    throw invalid("avatar", "头像地址无效，请重新上传");
  }
  const set = {
    ...(body.nickname !== undefined && { nickname: body.nickname }),
    ...(body.avatar !== undefined && { avatar: body.avatar }),
  };
  if (Object.keys(set).length) await ctx.db.updateTable("users").set(set).where("uid", "=", uid).execute();
  return getUserInfo(ctx, uid);
}

/**
 * Changes the password and revokes every session, the current one included. The old password is
 * checked under the sign-in limits (same counters), so a stolen session cannot guess it faster.
 */
export async function changePassword(
  ctx: AppContext,
  uid: number,
  body: ChangePasswordBody,
  ip: string,
): Promise<void> {
  const user = await findUserByUid(ctx.db, uid);
  if (!user) throw notFound("用户");
  if (!(await checkPasswordLimited(ctx, user.phone, ip, user.password_hash, body.old_password)))
    throw invalid("old_password", "原密码错误");
  const passwordHash = await ctx.passwords.hash(body.password);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable("users").set({ password_hash: passwordHash }).where("uid", "=", uid).execute();
    await revokeSessions(trx, { uid });
  });
}

/** Moves the account to a new phone number proven by an SMS code sent to it. */
export async function changePhone(ctx: AppContext, uid: number, body: ChangePhoneBody): Promise<UserInfo> {
  if (await findUserByPhone(ctx.db, body.phone)) throw localDuplicated("该手机号已被使用", "phone");
  await consumeCode(ctx, body.phone, "phone", body.code);
  await ctx.db.updateTable("users").set({ phone: body.phone }).where("uid", "=", uid).execute();
  ctx.events.emit("user.changed", { uid });
  return getUserInfo(ctx, uid);
}

/** A new frp access token; frpc using the old one is refused at its next plugin call. */
export async function resetFrpToken(ctx: AppContext, uid: number): Promise<{ frp_token: string }> {
  const frp_token = randomToken(16);
  await ctx.db.updateTable("users").set({ frp_token }).where("uid", "=", uid).execute();
  ctx.events.emit("user.changed", { uid });
  return { frp_token };
}
