import {
  type AdminUpdateUserBody,
  type AdminUserDetail,
  type AdminUserListQuery,
  type AdminUserRow,
  type Paged,
  Role,
  UserStatus,
} from "@burrow/contract";
import type { SelectQueryBuilder } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { invalid, notFound, refused } from "../../shared/errors";
import { countRows, inPage, pageIds, pageOf } from "../../shared/paging";
import { addDays, shanghaiDayStart } from "../../shared/time";
import { transact } from "../../shared/tx";
import { revokeAllApiTokens } from "../apitokens/api-tokens.service";
import { audit, changeDetail } from "../audit/audit";
import { hasSecondFactor, mfaRequiredFor } from "../auth/mfa";
import { hashPassword } from "../auth/passwords";
import { revokeSessions } from "../auth/sessions";
import { changeBalance, listLedger } from "../users/balance";
import { presentAdminUser } from "../users/users.presenter";
import { findUserByUid, phoneContains, updateUserRow } from "../users/users.repository";

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export async function listUsers(ctx: AppContext, q: AdminUserListQuery): Promise<Paged<AdminUserRow>> {
  for (const f of ["start_date", "end_date"] as const) {
    if (q[f] && !DATE.test(q[f])) throw invalid(f, "日期格式应为 YYYY-MM-DD");
  }
  let sel = ctx.db.selectFrom("users");
  if (q.phone) sel = sel.where(phoneContains(ctx.db, q.phone.replace(/[^\d]/g, "")));
  if (q.uid) sel = sel.where("uid", "=", q.uid);
  if (q.status !== undefined) sel = sel.where("status", "=", q.status);
  if (q.role !== undefined) sel = sel.where("role", "=", q.role);
  if (q.start_date) sel = sel.where("created_at", ">=", shanghaiDayStart(q.start_date).toISOString());
  if (q.end_date) sel = sel.where("created_at", "<", shanghaiDayStart(addDays(q.end_date, 1)).toISOString());
  // A date range lists newest registration first straight from users_created_at, which holds
  // that order: by uid, a month's uids were sorted for every page (docs/performance.md, fourth
  // round). Registration times rise with uids, so the two orders differ only if the clock
  // stepped back.
  const byDate = Boolean(q.start_date || q.end_date);
  const newest = <Q extends SelectQueryBuilder<DB, "users", object>>(s: Q): Q =>
    (byDate ? s.orderBy("created_at", "desc") : s).orderBy("uid", "desc") as Q;
  return pageOf(
    q.page,
    q.size,
    // The page's uids first, then only their rows: PostgreSQL steps over a deep page's uids in the
    // primary key alone (page 2,500: 46 → 4 ms, no heap read per skipped row).
    async (limit, offset) => {
      const onPage = byDate
        ? await inPage(ctx.db, "users.uid", newest(sel.select("uid")).limit(limit).offset(offset))
        : await pageIds(ctx.db, sel, "users.uid", limit, offset);
      const rows = ctx.db.selectFrom("users").where(onPage).selectAll();
      return (await newest(rows).execute()).map(presentAdminUser);
    },
    () => countRows(sel, ctx.db),
  );
}

export async function userDetail(ctx: AppContext, uid: number): Promise<AdminUserDetail> {
  const u = await findUserByUid(ctx.db, uid);
  if (!u) throw notFound("用户");
  const ledger = await listLedger(ctx.db, uid);
  return {
    ...presentAdminUser(u),
    avatar: u.avatar,
    invite_code: u.invite_code,
    referrer_uid: u.referrer_uid,
    real_name: u.real_name,
    ledger: ledger.map((l) => ({
      ...l,
      change: Number(l.change),
      balance_before: Number(l.balance_before),
      balance_after: Number(l.balance_after),
    })),
  };
}

/**
 * One admin write on a user, in one transaction with its audit row: profile, role, ban (revokes
 * every session at once) / unban, balance adjustment (ledger), password reset (revokes sessions).
 */
export async function updateUser(
  ctx: AppContext,
  operator: { uid: number; ip: string },
  body: AdminUpdateUserBody,
): Promise<AdminUserDetail> {
  const target = await findUserByUid(ctx.db, body.uid);
  if (!target) throw notFound("用户");
  if (body.uid === operator.uid && (body.status === UserStatus.Banned || (body.role && body.role !== Role.Manager))) {
    throw refused("不能封禁自己或降低自己的角色");
  }
  const passwordHash = body.password ? await hashPassword(body.password) : undefined;
  await transact(ctx, async (trx) => {
    const set = {
      ...(body.nickname !== undefined && { nickname: body.nickname }),
      ...(body.role !== undefined && { role: body.role }),
      ...(body.status !== undefined && {
        status: body.status,
        ban_reason: body.status === UserStatus.Banned ? (body.ban_reason ?? null) : null,
      }),
      ...(passwordHash && { password_hash: passwordHash }),
    };
    await updateUserRow(trx, body.uid, set);
    // Promoted into a role the site requires a second factor of, without one: the sessions signed
    // in under the old role end, so the staff requirement is met at the next sign-in (enrolment).
    const owesSecondFactor =
      body.role !== undefined &&
      body.role !== target.role &&
      mfaRequiredFor(ctx, body.role) &&
      !(await hasSecondFactor(trx, body.uid));
    if (body.status === UserStatus.Banned || passwordHash || owesSecondFactor)
      await revokeSessions(trx, { uid: body.uid });
    if (passwordHash) await revokeAllApiTokens(trx, body.uid);
    if (body.balance_change !== undefined) {
      await changeBalance(trx, {
        uid: body.uid,
        change: body.balance_change,
        reason: `管理员调整：${body.balance_reason}`,
        operatorUid: operator.uid,
      });
    }
    // Profile, role and ban with their old values; the balance adjustment is its own change (the ledger has it).
    const { password: _pw, uid: _uid, balance_change, balance_reason, ...fields } = body;
    await audit(trx, {
      operatorUid: operator.uid,
      action: "user.update",
      target: `user:${body.uid}`,
      detail: changeDetail(target, fields, {
        balance_change,
        balance_reason,
        ...(passwordHash && { password: "reset" }),
      }),
      ip: operator.ip,
    });
  });
  return userDetail(ctx, body.uid);
}
