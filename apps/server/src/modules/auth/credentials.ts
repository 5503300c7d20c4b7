import type { ChangePasswordBody, ChangePhoneBody, UserInfo } from "@burrow/contract";
import type { AppContext } from "../../context";
import { invalid, localDuplicated, notFound } from "../../shared/errors";
import { direct, transact } from "../../shared/tx";
import { revokeAllApiTokens } from "../apitokens/api-tokens.service";
import { findUserByPhone, findUserByUid, updateUserRow } from "../users/users.repository";
import { getUserInfo } from "../users/users.service";
import { checkPasswordLimited } from "./auth.service";
import { revokeSessions } from "./sessions";
import { consumeCode } from "./sms";

/*
 * A signed-in customer's credentials (password, phone): auth's rules (sign-in limits, SMS codes,
 * sessions) applied to the users module's rows, so that users never depends on auth.
 */

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
  await transact(ctx, async (trx) => {
    await updateUserRow(trx, uid, { password_hash: passwordHash });
    await revokeSessions(trx, { uid });
    await revokeAllApiTokens(trx, uid);
  });
}

/** Moves the account to a new phone number proven by an SMS code sent to it. */
export async function changePhone(ctx: AppContext, uid: number, body: ChangePhoneBody): Promise<UserInfo> {
  // The code first: a signed-in customer must not learn who else is a customer by trying numbers.
  await consumeCode(ctx, body.phone, "phone", body.code);
  if (await findUserByPhone(ctx.db, body.phone)) throw localDuplicated("该手机号已被使用", "phone");
  await updateUserRow(direct(ctx), uid, { phone: body.phone });
  return getUserInfo(ctx, uid);
}
