/** A customer's submissions (provider or manual review) and the redirect provider's signed result. */
import {
  maskIdNumber,
  maskName,
  ProcessStatus,
  VERIFY_REDIRECT_HOLD_MINUTES,
  type VerifyBody,
  type VerifyStartResult,
} from "@burrow/contract";
import type { AppContext } from "../../context";
import { isUniqueViolation } from "../../db/errors";
import { localDuplicated, rateLimited, refused } from "../../shared/errors";
import { lockUser } from "../../shared/locks";
import { AppState } from "../../shared/module";
import { nowIso } from "../../shared/time";
import { transact } from "../../shared/tx";
import type { UploadReader } from "../../shared/upload";
import { DUPLICATE, done, RELEASED, recentHoldStarts, recordRefusal, refuseHeldElsewhere, takeNumber } from "./claims";
import {
  evidenceKey,
  filesOf,
  type NewEvidence,
  NO_EVIDENCE,
  readReviewSubmission,
  removeEvidenceFiles,
  requireEvidenceRoom,
  writeEvidence,
} from "./evidence";
import { idHash, nameHash, verifySecret } from "./keyed-hash";
import { checkResult, createProvider, type ProviderDecision, providerKind } from "./provider";
import { findRow, mirror } from "./verify.repository";
import { verifyState } from "./verify.service";

/** Submissions one customer may make a day (all modes): a redirect hold cannot be renewed for ever. */
const SUBMISSIONS_PER_DAY = 10;

const statusOf = (d: ProviderDecision) =>
  d.status === "done"
    ? ProcessStatus.Done
    : d.status === "rejected"
      ? ProcessStatus.Rejected
      : ProcessStatus.Processing;

async function countSubmission(ctx: AppContext, uid: number): Promise<void> {
  const limit = await ctx.limiter.hit(`verify-submit:${uid}`, SUBMISSIONS_PER_DAY, 86400);
  if (!limit.allowed) throw rateLimited(limit.retryAfterSec);
}

/**
 * Records a submission (already checked locally) under the customer's lock. A number is held
 * against other accounts once done, or for VERIFY_REDIRECT_HOLD_MINUTES while a redirect
 * provider's request is processing; that hold starts once a day per account and number
 * (`hold_starts`), so submitting the number again — after another one or not — never renews it.
 * A manual review holds nothing — its claim is only shown to operators, contested when another
 * account claims the number too. A submission refused because another account holds the number
 * is recorded on the holder's request (`refused_claims`), so operators see the number contested.
 * `evidence` (a manual review's) replaces any earlier one, whose files go after the commit.
 */
async function recordSubmission(
  ctx: AppContext,
  uid: number,
  body: VerifyBody,
  decision: ProviderDecision,
  kind: string,
  evidence: NewEvidence | null,
): Promise<void> {
  const secret = await verifySecret(ctx);
  const hash = idHash(secret, body.id_number);
  const name = maskName(body.real_name);
  const id = maskIdNumber(body.id_number);
  const status = statusOf(decision);
  const reason = decision.status === "rejected" ? decision.reason : null;
  const redirectHold = decision.status === "processing" && decision.requestId !== null;
  const oldFiles: string[] = [];
  // Set (in the transaction) when another account's hold or verification refuses this one.
  const refusal: { by: number | null } = { by: null };
  try {
    await transact(ctx, async (trx) => {
      await lockUser(trx, uid);
      const current = await findRow(trx, uid);
      if (current?.status === ProcessStatus.Done) throw refused("你已完成实名认证");
      const now = nowIso();
      await refuseHeldElsewhere(trx, uid, hash, now, (holder) => {
        refusal.by = holder;
      });
      if (status === ProcessStatus.Done) {
        const other = await takeNumber(trx, uid, hash);
        if (other !== null) {
          refusal.by = other;
          throw localDuplicated(DUPLICATE, "id_number");
        }
      }
      // The hold runs from this account's first hold on the number within the day, ended or not.
      const starts = recentHoldStarts(current, now);
      let heldUntil: string | null = null;
      if (redirectHold) {
        starts[hash] ??= now;
        const end = new Date(Date.parse(starts[hash]) + VERIFY_REDIRECT_HOLD_MINUTES * 60_000).toISOString();
        heldUntil = end > now ? end : null;
      }
      const sameClaim = current?.claim_hash === hash && current.status === ProcessStatus.Processing;
      const { files: _written, ...evidenceColumns } = evidence ?? { files: [], ...NO_EVIDENCE };
      const values = {
        status,
        real_name_masked: name,
        id_number_masked: id,
        // A rejected number is not held: its real owner may still verify with it.
        id_hash: status === ProcessStatus.Done || heldUntil ? hash : null,
        claim_hash: status === ProcessStatus.Rejected ? null : hash,
        // Taken now: a redirect provider's result does not carry the name, and it is kept nowhere else.
        name_hash: status === ProcessStatus.Rejected ? null : nameHash(secret, body.real_name),
        held_until: heldUntil,
        reason,
        provider: kind,
        request_id: decision.status === "processing" ? decision.requestId : null,
        hold_starts: Object.keys(starts).length ? JSON.stringify(starts) : null,
        // Refusals belong to the claim they were refused for.
        refused_claims: sameClaim && status !== ProcessStatus.Rejected ? current.refused_claims : null,
        ...evidenceColumns,
        updated_at: now,
      };
      if (current) await trx.updateTable("verifications").set(values).where("uid", "=", uid).execute();
      else
        await trx
          .insertInto("verifications")
          .values({ uid, created_at: now, ...values })
          .execute();
      oldFiles.push(...filesOf(current));
      await mirror(trx, uid, { status, name, id });
    });
  } catch (err) {
    if (evidence) await removeEvidenceFiles(ctx, evidence.files);
    const raced = isUniqueViolation(err);
    if (refusal.by !== null || raced) await recordRefusal(ctx, uid, hash, kind, refusal.by);
    if (raced) throw localDuplicated(DUPLICATE, "id_number");
    throw err;
  }
  await removeEvidenceFiles(ctx, oldFiles);
}

/**
 * A customer submits name and number (POST /user/verify, checked locally by the contract's
 * schema); the provider then decides at once (sandbox) or after its page (redirect). The manual
 * mode takes a review with photos instead (POST /user/verify/review).
 */
export async function submitVerification(ctx: AppContext, uid: number, body: VerifyBody): Promise<VerifyStartResult> {
  const provider = createProvider(ctx.config);
  if (provider.kind === "manual") throw refused("人工审核需要上传身份证照片，请在实名认证页面上传后提交");
  await countSubmission(ctx, uid);
  const decision = provider.start({ realName: body.real_name, idNumber: body.id_number });
  await recordSubmission(ctx, uid, body, decision, provider.kind, null);
  return {
    ...(await verifyState(ctx, uid)),
    redirect_url: decision.status === "processing" ? decision.redirectUrl : null,
  };
}

/**
 * Customers with a review submission being read, per app (the verify manifest's state): one at a
 * time each, so one account cannot buffer many sets of photos at once (a lock held while a slow
 * client uploads would stall the database; this process is the only one reading the upload).
 */
export const reviewsInFlight = new AppState("verify.reviews-in-flight", () => new Set<number>());

/**
 * A submission for an operator's review (manual mode; in the sandbox, what the manual mode
 * does): name, number and photos of the ID card, stored encrypted until the decision. One per
 * customer at a time; counted, keyed and the disk checked before the body is read; the photos
 * are written (disk checked again for their size) before the transaction and removed again when
 * it fails.
 */
export async function submitReview(ctx: AppContext, uid: number, upload: UploadReader): Promise<VerifyStartResult> {
  const kind = providerKind(ctx.config);
  if (kind === "redirect") throw refused("当前实名认证方式不支持人工审核，请直接提交姓名和身份证号码");
  const busy = reviewsInFlight.of(ctx);
  if (busy.has(uid)) throw refused("你的另一份实名认证资料正在上传，请等待其完成后再提交");
  busy.add(uid);
  try {
    await evidenceKey(ctx);
    await countSubmission(ctx, uid);
    await requireEvidenceRoom(ctx, 0);
    const { body, photos } = await readReviewSubmission(upload);
    const current = await findRow(ctx.db, uid);
    if (current?.status === ProcessStatus.Done) throw refused("你已完成实名认证");
    const evidence = await writeEvidence(ctx, uid, { real_name: body.real_name, id_number: body.id_number }, photos);
    const decision: ProviderDecision = { status: "processing", redirectUrl: null, requestId: null };
    await recordSubmission(ctx, uid, body, decision, "manual", evidence);
  } finally {
    busy.delete(uid);
  }
  return { ...(await verifyState(ctx, uid)), redirect_url: null };
}

/**
 * Applies the provider's signed result (browser return or notify) to the request it names, once:
 * only a request still processing changes; a repeat, a stale request (reset or resubmitted) or a
 * forgery changes nothing. A "done" for a number another account verified meanwhile is recorded
 * as rejected. Returns the resulting status for the redirect, or null when refused.
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
  const apply = () =>
    transact(ctx, async (trx) => {
      const found = await trx
        .selectFrom("verifications")
        .select("uid")
        .where("request_id", "=", checked.requestId)
        .executeTakeFirst();
      if (!found) return null;
      await lockUser(trx, found.uid);
      const row = await findRow(trx, found.uid);
      if (!row || row.request_id !== checked.requestId) return null;
      if (row.status !== ProcessStatus.Processing || checked.status === "processing") return { status: row.status };
      let status = checked.status === "done" ? ProcessStatus.Done : ProcessStatus.Rejected;
      let reason = status === ProcessStatus.Rejected ? checked.reason || "认证未通过" : null;
      if (status === ProcessStatus.Done && (await takeNumber(trx, row.uid, row.claim_hash)) !== null) {
        status = ProcessStatus.Rejected;
        reason = DUPLICATE;
      }
      await trx
        .updateTable("verifications")
        .set({
          status,
          reason,
          ...RELEASED,
          ...(status === ProcessStatus.Done && done(row)),
          updated_at: nowIso(),
        })
        .where("uid", "=", row.uid)
        .where("status", "=", ProcessStatus.Processing)
        .execute();
      await mirror(trx, row.uid, { status, name: row.real_name_masked, id: row.id_number_masked });
      return { status, files: filesOf(row) };
    });
  let result: Awaited<ReturnType<typeof apply>>;
  try {
    result = await apply();
  } catch (err) {
    // Another account's verification of the number committed between the check and the write:
    // once more, and takeNumber sees it.
    if (!isUniqueViolation(err)) throw err;
    result = await apply();
  }
  if (result && "files" in result) await removeEvidenceFiles(ctx, result.files ?? []);
  return result && { status: result.status };
}
