import { AVATAR_PATH, type UpdateInfoBody, type UserInfo } from "@burrow/contract";
import type { AppContext } from "../../context";
import { invalid, notFound, refused } from "../../shared/errors";
import { randomToken } from "../../shared/ids";
import { direct } from "../../shared/tx";
import { hasPhone } from "./users.presenter";
import { findUserByUid, updateUserRow } from "./users.repository";

/** The user as they see themselves, from memory once read (ctx.userInfo, dropped on every change). */
export async function getUserInfo(ctx: AppContext, uid: number): Promise<UserInfo> {
  const user = await ctx.userInfo.get(uid);
  if (!user) throw notFound("用户");
  return user;
}

/**
 * Refuses (403) an account that has no phone yet (created by a third-party sign-in): orders and
 * tunnels call it before buying or creating anything.
 */
export async function requirePhone(ctx: AppContext, uid: number): Promise<void> {
  const user = await findUserByUid(ctx.db, uid);
  if (!user) throw notFound("用户");
  if (!hasPhone(user.phone)) throw refused("请先在个人中心绑定手机号（前往 /account/info）");
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
  await updateUserRow(direct(ctx), uid, set);
  return getUserInfo(ctx, uid);
}

/** A new frp access token; frpc using the old one is refused at its next plugin call. */
export async function resetFrpToken(ctx: AppContext, uid: number): Promise<{ frp_token: string }> {
  const frp_token = randomToken(16);
  await updateUserRow(direct(ctx), uid, { frp_token });
  return { frp_token };
}
