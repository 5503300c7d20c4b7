import { ProcessStatus, type VerifySetting, type VerifyState } from "@burrow/contract";
import type { AppContext } from "../../context";
import type { Operator } from "../../shared/actor";
import { refused } from "../../shared/errors";
import type { JobDef } from "../../shared/jobs";
import { lockUser } from "../../shared/locks";
import { getSetting, setSetting } from "../../shared/settings";
import { nowIso } from "../../shared/time";
import { transact } from "../../shared/tx";
import { audit, changeDetail } from "../audit/audit";
import { RELEASED } from "./claims";
import { expiredEvidence, filesOf, NO_EVIDENCE, removeEvidenceFiles, removeOrphanFiles } from "./evidence";
import { providerKind } from "./provider";
import { present } from "./verify.presenter";
import { findRow, mirror } from "./verify.repository";

const REQUIRED_KEY = "verify_required_for_tunnels";
const EXPIRED_REASON = "超过审核期限未处理，证件照片已删除，请重新提交";

export async function verifySetting(ctx: AppContext): Promise<VerifySetting> {
  const v = await getSetting(ctx.db, REQUIRED_KEY);
  return { required_for_tunnels: v === undefined ? ctx.config.VERIFY_REQUIRED_FOR_TUNNELS : v === "1" };
}

export async function updateVerifySetting(
  ctx: AppContext,
  operator: Operator,
  body: VerifySetting,
): Promise<VerifySetting> {
  const before = await verifySetting(ctx);
  await transact(ctx, async (trx) => {
    await setSetting(trx, REQUIRED_KEY, body.required_for_tunnels ? "1" : "0");
    await audit(trx, {
      operatorUid: operator.uid,
      action: "verify.setting",
      target: "setting:verify_required_for_tunnels",
      detail: changeDetail(before, body),
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

export async function verifyState(ctx: AppContext, uid: number): Promise<VerifyState> {
  const [row, setting] = await Promise.all([findRow(ctx.db, uid), verifySetting(ctx)]);
  return { ...present(row), required_for_tunnels: setting.required_for_tunnels, mode: providerKind(ctx.config) };
}

/**
 * Manual reviews nobody decided within VERIFY_EVIDENCE_DAYS: the request is rejected (the
 * customer may submit again) and its evidence deleted; then files no row names any more.
 */
export async function expireEvidence(ctx: AppContext, now = new Date()): Promise<number> {
  let expired = 0;
  for (const { uid } of await expiredEvidence(ctx.db, now, 200)) {
    const files = await transact(ctx, async (trx) => {
      await lockUser(trx, uid);
      const row = await findRow(trx, uid);
      if (!row?.evidence_expires_at || row.evidence_expires_at > now.toISOString()) return [];
      // Without its photos the request cannot be decided: it ends, and the customer may submit again.
      const ended = row.status === ProcessStatus.Processing;
      await trx
        .updateTable("verifications")
        .set(
          ended
            ? { status: ProcessStatus.Rejected, reason: EXPIRED_REASON, ...RELEASED, updated_at: nowIso() }
            : NO_EVIDENCE,
        )
        .where("uid", "=", uid)
        .execute();
      if (ended)
        await mirror(trx, uid, {
          status: ProcessStatus.Rejected,
          name: row.real_name_masked,
          id: row.id_number_masked,
        });
      return filesOf(row);
    });
    await removeEvidenceFiles(ctx, files);
    if (files.length) expired++;
  }
  await removeOrphanFiles(ctx, now);
  return expired;
}

export const verifyJobs: JobDef[] = [
  { name: "verify.evidence-expire", everyMs: 3600_000, run: (ctx) => expireEvidence(ctx) },
];
