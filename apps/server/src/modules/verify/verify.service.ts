import { createHmac } from "node:crypto";
import {
  type AdminVerifyBody,
  type AdminVerifyView,
  maskIdNumber,
  maskName,
  ProcessStatus,
  type VerifyBody,
  type VerifySetting,
  type VerifyStartResult,
  type VerifyState,
} from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { isUniqueViolation } from "../../http/error-handler";
import { localDuplicated, notFound, refused } from "../../http/errors";
import type { Operator } from "../../http/route";
import type { Figure } from "../../shared/figures";
import { randomToken } from "../../shared/ids";
import { lockUser } from "../../shared/locks";
import { getSetting, setSetting, setSettingIfAbsent } from "../../shared/settings";
import { nowIso } from "../../shared/time";
import { type Tx, transact } from "../../shared/tx";
import { audit } from "../audit/audit";
import { findUserByUid, updateUserRow } from "../users/users.repository";
import { checkResult, createProvider } from "./provider";
import type { VerificationTable } from "./verify.table";

const REQUIRED_KEY = "verify_required_for_tunnels";
const SECRET_KEY = "verify_id_secret";
const DUPLICATE = "该身份证号码已用于其他账号的实名认证，一个身份证号码只能认证一个账号";

/** The key of the ID-number hash: VERIFY_ID_SECRET, or one generated once and kept in settings (first writer wins). */
async function idSecret(ctx: AppContext): Promise<string> {
  if (ctx.config.VERIFY_ID_SECRET) return ctx.config.VERIFY_ID_SECRET;
  return (await getSetting(ctx.db, SECRET_KEY)) ?? setSettingIfAbsent(ctx.db, SECRET_KEY, randomToken(48));
}

/** The keyed hash under which a number is held: equal numbers collide, the number cannot be read back. */
export const idHash = (secret: string, idNumber: string): string =>
  createHmac("sha256", secret).update(idNumber.toUpperCase(), "utf8").digest("hex");

export async function verifySetting(ctx: AppContext): Promise<VerifySetting> {
  const v = await getSetting(ctx.db, REQUIRED_KEY);
  return { required_for_tunnels: v === undefined ? ctx.config.VERIFY_REQUIRED_FOR_TUNNELS : v === "1" };
}

export async function updateVerifySetting(
  ctx: AppContext,
  operator: Operator,
  body: VerifySetting,
): Promise<VerifySetting> {
  await transact(ctx, async (trx) => {
    await setSetting(trx, REQUIRED_KEY, body.required_for_tunnels ? "1" : "0");
    await audit(trx, {
      operatorUid: operator.uid,
      action: "verify.setting",
      target: "setting:verify_required_for_tunnels",
      detail: body,
      ip: operator.ip,
    });
  });
  return verifySetting(ctx);
}

/** Refuses (2001) a customer without a done verification when the site requires one for tunnels. */
export async function requireVerifiedForTunnels(ctx: AppContext, uid: number): Promise<void> {
  if (!(await verifySetting(ctx)).required_for_tunnels) return;
  const row = await ctx.db.selectFrom("verifications").select("status").where("uid", "=", uid).executeTakeFirst();
  if (row?.status !== ProcessStatus.Done) throw refused("创建隧道前请先完成实名认证（前往 /account/verify）");
}

const findRow = (db: Kysely<DB>, uid: number) =>
  db.selectFrom("verifications").selectAll().where("uid", "=", uid).executeTakeFirst();

function present(row: VerificationTable | undefined) {
  return {
    status: row?.status ?? ProcessStatus.None,
    real_name: row?.real_name_masked ?? null,
    id_number: row?.id_number_masked ?? null,
    reason: row?.reason ?? null,
    updated_at: row?.updated_at ?? null,
  };
}

export async function verifyState(ctx: AppContext, uid: number): Promise<VerifyState> {
  const [row, setting] = await Promise.all([findRow(ctx.db, uid), verifySetting(ctx)]);
  return { ...present(row), required_for_tunnels: setting.required_for_tunnels };
}

/** The users row mirrors the state (masked), for the profile, lists and overview counts. */
async function mirror(trx: Tx, uid: number, row: { status: number; name: string | null; id: string | null }) {
  await updateUserRow(trx, uid, { verify_status: row.status, real_name: row.name, id_number_masked: row.id });
}

/**
 * A customer submits name and number (already checked locally by the contract's schema). The
 * number is held (hash, unique) from the moment the request is processing; a number held by
 * another account is refused with a clear message, also when two submissions race (the unique
 * index decides). The provider then decides at once (sandbox) or after its page (redirect).
 */
export async function submitVerification(ctx: AppContext, uid: number, body: VerifyBody): Promise<VerifyStartResult> {
  const provider = createProvider(ctx.config);
  const hash = idHash(await idSecret(ctx), body.id_number);
  const name = maskName(body.real_name);
  const id = maskIdNumber(body.id_number);
  const decision = provider.start({ realName: body.real_name, idNumber: body.id_number });
  const status =
    decision.status === "done"
      ? ProcessStatus.Done
      : decision.status === "rejected"
        ? ProcessStatus.Rejected
        : ProcessStatus.Processing;
  const reason = decision.status === "rejected" ? decision.reason : null;
  try {
    await transact(ctx, async (trx) => {
      await lockUser(trx, uid);
      const current = await findRow(trx, uid);
      if (current?.status === ProcessStatus.Done) throw refused("你已完成实名认证");
      const holder = await trx
        .selectFrom("verifications")
        .select("uid")
        .where("id_hash", "=", hash)
        .where("uid", "<>", uid)
        .executeTakeFirst();
      if (holder) throw localDuplicated(DUPLICATE, "id_number");
      const now = nowIso();
      const values = {
        status,
        real_name_masked: name,
        id_number_masked: id,
        // A rejected number is not held: its real owner may still verify with it.
        id_hash: status === ProcessStatus.Rejected ? null : hash,
        reason,
        provider: provider.kind,
        request_id: decision.status === "processing" ? decision.requestId : null,
        updated_at: now,
      };
      if (current) await trx.updateTable("verifications").set(values).where("uid", "=", uid).execute();
      else
        await trx
          .insertInto("verifications")
          .values({ uid, created_at: now, ...values })
          .execute();
      await mirror(trx, uid, { status, name, id });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw localDuplicated(DUPLICATE, "id_number");
    throw err;
  }
  return {
    ...(await verifyState(ctx, uid)),
    redirect_url: decision.status === "processing" ? decision.redirectUrl : null,
  };
}

/**
 * Applies the provider's signed result (browser return or notify) to the request it names, once:
 * only a request still processing changes; a repeat, a stale request (reset or resubmitted) or a
 * forgery changes nothing. Returns the resulting status for the redirect, or null when refused.
 */
export async function applyProviderResult(
  ctx: AppContext,
  params: Record<string, string> | null,
): Promise<{ status: number } | null> {
  const checked = checkResult(ctx.config, params);
  if (!checked.ok) {
    ctx.log.warn({ reason: checked.reason }, "verification result refused");
    return null;
  }
  return transact(ctx, async (trx) => {
    const row = await trx
      .selectFrom("verifications")
      .selectAll()
      .where("request_id", "=", checked.requestId)
      .executeTakeFirst();
    if (!row) return null;
    await lockUser(trx, row.uid);
    if (row.status !== ProcessStatus.Processing || checked.status === "processing") return { status: row.status };
    const status = checked.status === "done" ? ProcessStatus.Done : ProcessStatus.Rejected;
    const reason = status === ProcessStatus.Rejected ? checked.reason || "认证未通过" : null;
    await trx
      .updateTable("verifications")
      .set({
        status,
        reason,
        ...(status === ProcessStatus.Rejected && { id_hash: null }),
        request_id: null,
        updated_at: nowIso(),
      })
      .where("uid", "=", row.uid)
      .where("status", "=", ProcessStatus.Processing)
      .execute();
    await mirror(trx, row.uid, { status, name: row.real_name_masked, id: row.id_number_masked });
    return { status };
  });
}

export async function adminVerifyView(ctx: AppContext, uid: number): Promise<AdminVerifyView> {
  if (!(await findUserByUid(ctx.db, uid))) throw notFound("用户");
  const row = await findRow(ctx.db, uid);
  return { uid, ...present(row), provider: row?.provider ?? null, created_at: row?.created_at ?? null };
}

/**
 * An operator approves a processing request, rejects a processing or done one (with a reason;
 * the number is released), or resets any (the row goes, the customer may submit again).
 */
export async function adminVerifyAction(
  ctx: AppContext,
  operator: Operator,
  body: AdminVerifyBody,
): Promise<AdminVerifyView> {
  await transact(ctx, async (trx) => {
    await lockUser(trx, body.uid);
    const row = await findRow(trx, body.uid);
    if (!row) throw refused("该用户没有实名认证记录");
    const now = nowIso();
    if (body.action === "reset") {
      await trx.deleteFrom("verifications").where("uid", "=", body.uid).execute();
      await mirror(trx, body.uid, { status: ProcessStatus.None, name: null, id: null });
    } else if (body.action === "approve") {
      if (row.status !== ProcessStatus.Processing) throw refused("只能通过处理中的实名认证");
      await trx
        .updateTable("verifications")
        .set({ status: ProcessStatus.Done, reason: null, request_id: null, updated_at: now })
        .where("uid", "=", body.uid)
        .execute();
      await mirror(trx, body.uid, { status: ProcessStatus.Done, name: row.real_name_masked, id: row.id_number_masked });
    } else {
      if (row.status === ProcessStatus.Rejected) throw refused("该实名认证已是驳回状态");
      await trx
        .updateTable("verifications")
        .set({
          status: ProcessStatus.Rejected,
          reason: body.reason ?? null,
          id_hash: null,
          request_id: null,
          updated_at: now,
        })
        .where("uid", "=", body.uid)
        .execute();
      await mirror(trx, body.uid, {
        status: ProcessStatus.Rejected,
        name: row.real_name_masked,
        id: row.id_number_masked,
      });
    }
    await audit(trx, {
      operatorUid: operator.uid,
      action: `verify.${body.action}`,
      target: `user:${body.uid}`,
      detail: { from: row.status, ...(body.reason && { reason: body.reason }) },
      ip: operator.ip,
    });
  });
  // Tunnel creation depends on the state; frp decisions do not, so no event is needed.
  return adminVerifyView(ctx, body.uid);
}

/** Verifications in a given state (the operator's overview counts done and waiting ones). */
export function verificationsWith(db: Kysely<DB>, status: number): Figure {
  return db
    .selectFrom("verifications")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("status", "=", status);
}
