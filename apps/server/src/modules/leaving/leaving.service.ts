import {
  type AdminDeletionQuery,
  type AdminDeletionRow,
  DELETION_COOL_OFF_DAYS,
  type DeletionPrecheck,
  DeletionStatus,
  type DeletionView,
  type Paged,
  type RequestDeletionBody,
} from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext, TunnelStartGuard } from "../../context";
import { isUniqueViolation } from "../../db/errors";
import type { DB } from "../../db/schema";
import type { Principal } from "../../shared/auth";
import { invalid, notFound, refused } from "../../shared/errors";
import { parseJson } from "../../shared/json";
import { lockUser } from "../../shared/locks";
import { pageOfQuery } from "../../shared/paging";
import { DAY_MS } from "../../shared/time";
import { transact } from "../../shared/tx";
import { affiliateMoneyOf } from "../affiliate/account-data";
import { revokeAllApiTokens } from "../apitokens/api-tokens.service";
import { checkPasswordLimited } from "../auth/auth.service";
import { checkSecondFactor, secondFactorError, totpEnabled } from "../auth/mfa";
import { checkPasskeyConfirm } from "../auth/passkey-confirm";
import { revokeSessions, SESSION_KIND } from "../auth/sessions";
import { hasPasskey } from "../auth/webauthn";
import { restartAccountTunnels, stopAccountTunnels } from "../tunnels/account-data";
import { findUserByUid } from "../users/users.repository";
import type { AccountDeletionRow } from "./leaving.table";

/* Account deletion with a cool-off (issue 34 §6, docs/leaving.md): the request, its cancel, the lists. */

const fen = (n: number) => (n / 100).toFixed(2);

const viewOf = (r: AccountDeletionRow): DeletionView => ({
  status: r.status as DeletionStatus,
  requested_at: r.requested_at,
  executes_at: r.executes_at,
  forfeit_fen: Number(r.forfeit_fen),
});

const pendingOf = (db: Kysely<DB>, uid: number) =>
  db
    .selectFrom("account_deletions")
    .selectAll()
    .where("uid", "=", uid)
    .where("status", "=", DeletionStatus.Pending)
    .executeTakeFirst();

/**
 * No tunnel starts during the cool-off (ctx.tunnelStartGuards, asked under the customer's lock,
 * which requestDeletion takes too): the request stopped them, cancelling restarts them.
 */
export const noTunnelStartWhileLeaving: TunnelStartGuard = async (trx, uid) =>
  (await pendingOf(trx, uid)) ? "账号注销冷静期内不能启用或新建隧道；如需继续使用，请先撤销注销申请" : null;

/** Nothing of the account is made public during the cool-off (ctx.publishGuards: an uptime status page turned on). */
export const noPublishingWhileLeaving: TunnelStartGuard = async (trx, uid) =>
  (await pendingOf(trx, uid)) ? "账号注销冷静期内不能开启公开状态页；如需继续使用，请先撤销注销申请" : null;

/** The customer's pending deletion (the console's banner), or null. */
export async function myDeletion(ctx: AppContext, uid: number): Promise<DeletionView | null> {
  const row = await pendingOf(ctx.db, uid);
  return row ? viewOf(row) : null;
}

/** What the deletion form needs to ask: money to forfeit, a second factor. */
export async function deletionPrecheck(ctx: AppContext, uid: number): Promise<DeletionPrecheck> {
  const user = await findUserByUid(ctx.db, uid);
  if (!user) throw notFound("用户");
  const { available } = await affiliateMoneyOf(ctx.db, uid);
  const [totp, passkey] = await Promise.all([totpEnabled(ctx.db, uid), hasPasskey(ctx.db, uid)]);
  return { balance: Number(user.balance), affiliate_available: available, totp, passkey };
}

/**
 * The deletion's second factor, wherever the account has one: a passkey (answering
 * POST /user/leaving/passkey/options) or a TOTP or recovery code. An account with passkeys only
 * confirms with password and passkey; each is checked under its own failure limits.
 */
async function checkDeletionFactor(ctx: AppContext, caller: Principal, body: RequestDeletionBody, ip: string) {
  const [totp, passkey] = await Promise.all([totpEnabled(ctx.db, caller.uid), hasPasskey(ctx.db, caller.uid)]);
  if (body.credential && passkey) return checkPasskeyConfirm(ctx, caller, body.credential, ip);
  if (totp) {
    if (!body.code) throw invalid("code", passkey ? "请输入两步验证码，或使用通行密钥验证" : "请输入两步验证码");
    const r = await checkSecondFactor(ctx, caller.uid, ip, body.code, { recovery: true });
    if (r !== "ok") throw secondFactorError(r);
  } else if (passkey) throw invalid("credential", "请使用通行密钥验证身份");
}

/**
 * The customer asks for the account's deletion. Checked before anything changes: the password
 * (under sign-in's failure limits), the second factor when the account has one (TOTP or passkey), the typed
 * confirmation (the body's schema), money left (refused while a withdrawal is being paid, and
 * while balance or affiliate earnings are positive unless the customer forfeits them). Then, under
 * the customer's lock in one transaction: the request (one pending per customer), every enabled
 * tunnel stopped (frp sessions cut as after a lock), every other session and every API token revoked.
 */
export async function requestDeletion(
  ctx: AppContext,
  caller: Principal,
  body: RequestDeletionBody,
  ip: string,
  now = new Date(),
): Promise<DeletionView> {
  const uid = caller.uid;
  const user = await findUserByUid(ctx.db, uid);
  if (!user) throw notFound("用户");
  if (!(await checkPasswordLimited(ctx, user.phone, ip, user.password_hash, body.password)))
    throw invalid("password", "密码错误");
  await checkDeletionFactor(ctx, caller, body, ip);
  try {
    return await transact(ctx, async (trx) => {
      await lockUser(trx, uid);
      if (await pendingOf(trx, uid)) throw refused("已提交注销申请，冷静期结束后将注销");
      const locked = await findUserByUid(trx, uid);
      const aff = await affiliateMoneyOf(trx, uid);
      if (aff.processing > 0) throw refused("有提现正在处理，请在提现完成后再申请注销");
      const left = Number(locked?.balance ?? 0) + aff.available;
      if (left > 0 && !body.forfeit)
        throw invalid("forfeit", `账户还有余额或返利共 ¥${fen(left)}，注销后将作废；请确认放弃后再提交`);
      const row = {
        uid,
        status: DeletionStatus.Pending,
        requested_at: now.toISOString(),
        executes_at: new Date(now.getTime() + DELETION_COOL_OFF_DAYS * DAY_MS).toISOString(),
        forfeit_fen: left,
        stopped_tunnels: "[]",
      };
      const { id } = await trx.insertInto("account_deletions").values(row).returning("id").executeTakeFirstOrThrow();
      const stopped = await stopAccountTunnels(trx, uid);
      await trx
        .updateTable("account_deletions")
        .set({ stopped_tunnels: JSON.stringify(stopped) })
        .where("id", "=", id)
        .execute();
      await revokeSessions(trx, { uid, ...(caller.kind === SESSION_KIND && { except: caller.credentialId }) });
      await revokeAllApiTokens(trx, uid);
      return viewOf({ ...row, id, cancelled_at: null, erased_at: null });
    });
  } catch (err) {
    // two requests at once: the second one meets the pending index
    if (isUniqueViolation(err)) throw refused("已提交注销申请，冷静期结束后将注销");
    throw err;
  }
}

/** The customer cancels the pending deletion (signed in again during the cool-off): the tunnels it stopped run again. */
export async function cancelDeletion(ctx: AppContext, uid: number, now = new Date()): Promise<void> {
  await transact(ctx, async (trx) => {
    await lockUser(trx, uid);
    const row = await trx
      .updateTable("account_deletions")
      .set({ status: DeletionStatus.Cancelled, cancelled_at: now.toISOString() })
      .where("uid", "=", uid)
      .where("status", "=", DeletionStatus.Pending)
      .returning("stopped_tunnels")
      .executeTakeFirst();
    if (!row) throw notFound("注销申请");
    await restartAccountTunnels(trx, uid, parseJson<number[]>(row.stopped_tunnels, []));
  });
}

/** Operators' list: pending deletions first by when they execute, then the others newest first. */
export async function listDeletions(ctx: AppContext, q: AdminDeletionQuery): Promise<Paged<AdminDeletionRow>> {
  let base = ctx.db.selectFrom("account_deletions");
  if (q.status) base = base.where("status", "=", q.status);
  const present = (r: AccountDeletionRow): AdminDeletionRow => ({
    id: r.id,
    uid: r.uid,
    status: r.status as DeletionStatus,
    requested_at: r.requested_at,
    executes_at: r.executes_at,
    cancelled_at: r.cancelled_at,
    erased_at: r.erased_at,
    forfeit_fen: Number(r.forfeit_fen),
  });
  return pageOfQuery(
    q,
    base,
    (s) =>
      s
        .selectAll()
        .orderBy((eb) => eb.case().when("status", "=", DeletionStatus.Pending).then(0).else(1).end())
        .orderBy("executes_at", "desc")
        .orderBy("id", "desc"),
    present,
  );
}
