/** Operators' side: the request's view, the manual review's data and photos, the queue and decisions. */
import {
  type AdminVerifyBody,
  type AdminVerifyReview,
  type AdminVerifyView,
  type Paged,
  ProcessStatus,
  type VerifyPhotoQuery,
  type VerifyQueueQuery,
  type VerifyQueueRow,
} from "@burrow/contract";
import type { ExpressionBuilder } from "kysely";
import type { AppContext } from "../../context";
import { isUniqueViolation } from "../../db/errors";
import type { DB } from "../../db/schema";
import type { Operator } from "../../shared/actor";
import type { FileDownload } from "../../shared/download";
import { invalid, localDuplicated, notFound, refused } from "../../shared/errors";
import { lockUser } from "../../shared/locks";
import { countRows, pageOf } from "../../shared/paging";
import { nowIso } from "../../shared/time";
import { transact } from "../../shared/tx";
import { audit } from "../audit/audit";
import { findUserByUid, userBriefs } from "../users/users.repository";
import { contestedClaims, DUPLICATE, done, RELEASED, refusedOf, takeNumber } from "./claims";
import { filesOf, openIdentity, openPhoto, photosOf, removeEvidenceFiles } from "./evidence";
import { nameHash, verifySecret } from "./keyed-hash";
import { present, reviewVersion } from "./verify.presenter";
import { findRow, mirror } from "./verify.repository";
import type { VerificationTable } from "./verify.table";

/** A decision or photo read for a submission other than the one the reviewer opened. */
const STALE = "资料已更新，请重新审核";

export async function adminVerifyView(ctx: AppContext, uid: number): Promise<AdminVerifyView> {
  if (!(await findUserByUid(ctx.db, uid))) throw notFound("用户");
  const row = await findRow(ctx.db, uid);
  return {
    uid,
    ...present(row),
    provider: row?.provider ?? null,
    created_at: row?.created_at ?? null,
    held_until: row?.status === ProcessStatus.Processing && row.id_hash ? row.held_until : null,
    contested:
      row?.status === ProcessStatus.Processing || row?.status === ProcessStatus.Done
        ? await contestedClaims(ctx.db, row)
        : [],
    evidence: row?.evidence_expires_at
      ? { photos: photosOf(row).map((p) => p.kind), expires_at: row.evidence_expires_at }
      : null,
  };
}

/** A manual review's full name, number, photo list and version, for the deciding Manager; every call is audited. */
export async function adminVerifyReview(ctx: AppContext, operator: Operator, uid: number): Promise<AdminVerifyReview> {
  const evidence = await findRow(ctx.db, uid);
  if (!evidence?.evidence_key || !evidence.evidence_expires_at) throw notFound("待审核的证件资料");
  const identity = await openIdentity(ctx, evidence);
  await audit(ctx.db, { operatorUid: operator.uid, action: "verify.review", target: `user:${uid}`, ip: operator.ip });
  return {
    uid,
    ...identity,
    photos: photosOf(evidence).map(({ kind, mime, size }) => ({ kind, mime, size })),
    created_at: evidence.updated_at,
    expires_at: evidence.evidence_expires_at,
    version: reviewVersion(evidence),
  };
}

/**
 * One photo of a manual review, decrypted, to the deciding Manager (never cached); every
 * view is audited. With the review's version, a photo of a later submission is refused (409).
 */
export async function verifyPhoto(ctx: AppContext, operator: Operator, q: VerifyPhotoQuery): Promise<FileDownload> {
  const evidence = await findRow(ctx.db, q.uid);
  if (evidence && q.version !== undefined && q.version !== reviewVersion(evidence))
    throw localDuplicated(STALE, "version");
  const photo = evidence?.evidence_key ? photosOf(evidence).find((p) => p.kind === q.kind) : undefined;
  const data = evidence && photo ? await openPhoto(ctx, evidence, q.kind) : null;
  if (!photo || !data) throw notFound("证件照片");
  await audit(ctx.db, {
    operatorUid: operator.uid,
    action: "verify.photo",
    target: `user:${q.uid}`,
    detail: { kind: q.kind },
    ip: operator.ip,
  });
  return { body: data, name: `${q.uid}-${q.kind}`, type: photo.mime, disposition: "inline" };
}

/** The requests waiting for a decision, oldest first, each with how many other accounts claim its number. */
export async function verifyQueue(ctx: AppContext, q: VerifyQueueQuery): Promise<Paged<VerifyQueueRow>> {
  // Other accounts' current claims of the row's number (correlated on "v").
  const others = (eb: ExpressionBuilder<DB & { v: VerificationTable }, "v">) =>
    eb
      .selectFrom("verifications as o")
      .whereRef("o.claim_hash", "=", "v.claim_hash")
      .whereRef("o.uid", "<>", "v.uid")
      .where("o.status", "in", [ProcessStatus.Processing, ProcessStatus.Done]);
  let base = ctx.db.selectFrom("verifications as v").where("v.status", "=", ProcessStatus.Processing);
  if (q.contested === "1")
    base = base.where((eb) => eb.or([eb.exists(others(eb).select("o.uid")), eb("v.refused_claims", "is not", null)]));
  const page = await pageOf(
    q.page,
    q.size,
    (limit, offset) =>
      base
        .select((eb) => [
          "v.uid",
          "v.real_name_masked",
          "v.id_number_masked",
          "v.provider",
          "v.held_until",
          "v.id_hash",
          "v.created_at",
          "v.updated_at",
          "v.evidence_key",
          "v.refused_claims",
          others(eb)
            .select((o) => o.fn.countAll<number>().as("n"))
            .as("contested"),
        ])
        .orderBy("v.updated_at")
        .orderBy("v.uid")
        .limit(limit)
        .offset(offset)
        .execute(),
    () => countRows(base),
  );
  const briefs = await userBriefs(
    ctx.db,
    page.list.map((r) => r.uid),
  );
  return {
    ...page,
    list: page.list.map((r) => ({
      uid: r.uid,
      nickname: briefs.get(r.uid)?.nickname ?? "",
      phone: briefs.get(r.uid)?.phone ?? "",
      real_name: r.real_name_masked,
      id_number: r.id_number_masked,
      provider: r.provider,
      evidence: r.evidence_key !== null,
      // Claims, then refusals (an account refused and claiming later may count twice here; the
      // request's own view lists each account once).
      contested: Number(r.contested ?? 0) + refusedOf(r).length,
      held_until: r.id_hash ? r.held_until : null,
      created_at: r.created_at,
      updated_at: r.updated_at,
    })),
  };
}

/**
 * The name hash of a manual review submitted before name hashes were kept, from the full name in
 * its evidence (read before the transaction: the evidence key may be generated into settings).
 */
async function nameFromEvidence(ctx: AppContext, uid: number): Promise<{ identity: string; hash: string } | null> {
  const row = await findRow(ctx.db, uid);
  if (!row || row.name_hash || !row.evidence_key || !row.evidence_identity) return null;
  const { real_name } = await openIdentity(ctx, row);
  return { identity: row.evidence_identity, hash: nameHash(await verifySecret(ctx), real_name) };
}

/**
 * An operator approves a processing request, rejects a processing or done one (with a reason;
 * the number is released), or resets any (the row goes, the customer may submit again). Approval
 * is refused when another account has verified the number; it releases other accounts'
 * unfinished holds. Any decision deletes the request's evidence (key, identity and photos).
 */
export async function adminVerifyAction(
  ctx: AppContext,
  operator: Operator,
  body: AdminVerifyBody,
): Promise<AdminVerifyView> {
  let files: string[] = [];
  const fromEvidence = body.action === "approve" ? await nameFromEvidence(ctx, body.uid) : null;
  const taken = (other: number) =>
    localDuplicated(`该身份证号码已由其他账号（UID ${other}）完成实名认证，请驳回此申请`, "uid");
  try {
    await transact(ctx, async (trx) => {
      await lockUser(trx, body.uid);
      const row = await findRow(trx, body.uid);
      if (!row) throw refused("该用户没有实名认证记录");
      // A decision applies to the submission the reviewer saw (a reset, to whatever there is).
      if (body.action !== "reset") {
        if (body.version !== undefined && body.version !== reviewVersion(row)) throw localDuplicated(STALE, "version");
        if (body.action === "approve" && row.evidence_key && body.version === undefined)
          throw invalid("version", "请先打开证件资料审核后再通过（缺少审核版本）");
      }
      const now = nowIso();
      if (body.action === "reset") {
        await trx.deleteFrom("verifications").where("uid", "=", body.uid).execute();
        await mirror(trx, body.uid, { status: ProcessStatus.None, name: null, id: null });
      } else if (body.action === "approve") {
        if (row.status !== ProcessStatus.Processing) throw refused("只能通过处理中的实名认证");
        const other = await takeNumber(trx, body.uid, row.claim_hash);
        if (other !== null) throw taken(other);
        await trx
          .updateTable("verifications")
          .set({
            status: ProcessStatus.Done,
            reason: null,
            ...RELEASED,
            ...done({
              claim_hash: row.claim_hash,
              refused_claims: row.refused_claims,
              name_hash:
                row.name_hash ??
                (fromEvidence && fromEvidence.identity === row.evidence_identity ? fromEvidence.hash : null),
            }),
            updated_at: now,
          })
          .where("uid", "=", body.uid)
          .execute();
        await mirror(trx, body.uid, {
          status: ProcessStatus.Done,
          name: row.real_name_masked,
          id: row.id_number_masked,
        });
      } else {
        if (row.status === ProcessStatus.Rejected) throw refused("该实名认证已是驳回状态");
        await trx
          .updateTable("verifications")
          .set({ status: ProcessStatus.Rejected, reason: body.reason ?? null, ...RELEASED, updated_at: now })
          .where("uid", "=", body.uid)
          .execute();
        await mirror(trx, body.uid, {
          status: ProcessStatus.Rejected,
          name: row.real_name_masked,
          id: row.id_number_masked,
        });
      }
      files = filesOf(row);
      await audit(trx, {
        operatorUid: operator.uid,
        action: `verify.${body.action}`,
        target: `user:${body.uid}`,
        detail: { from: row.status, ...(body.reason && { reason: body.reason }), photos_deleted: files.length },
        ip: operator.ip,
      });
    });
  } catch (err) {
    // Another account's verification committed between takeNumber and the write.
    if (isUniqueViolation(err)) throw localDuplicated(DUPLICATE, "uid");
    throw err;
  }
  await removeEvidenceFiles(ctx, files);
  // Tunnel creation depends on the state; frp decisions do not, so no event is needed.
  return adminVerifyView(ctx, body.uid);
}
