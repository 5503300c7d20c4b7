import { createHash } from "node:crypto";
import {
  type AdminVerifyBody,
  type AdminVerifyReview,
  type AdminVerifyView,
  type ContestedClaim,
  maskIdNumber,
  maskName,
  type Paged,
  ProcessStatus,
  VERIFY_REDIRECT_HOLD_MINUTES,
  type VerifyBody,
  type VerifyPhotoQuery,
  type VerifyQueueQuery,
  type VerifyQueueRow,
  type VerifySetting,
  type VerifyStartResult,
  type VerifyState,
} from "@burrow/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { ExpressionBuilder, Kysely } from "kysely";
import type { AppContext } from "../../context";
import { isUniqueViolation } from "../../db/errors";
import type { DB } from "../../db/schema";
import type { Operator } from "../../shared/actor";
import { invalid, localDuplicated, notFound, rateLimited, refused } from "../../shared/errors";
import type { Figure } from "../../shared/figures";
import type { JobDef } from "../../shared/jobs";
import { lockUser } from "../../shared/locks";
import { countRows, pageOf } from "../../shared/paging";
import { getSetting, setSetting } from "../../shared/settings";
import { nowIso } from "../../shared/time";
import { type Tx, transact } from "../../shared/tx";
import { audit } from "../audit/audit";
import { findUserByUid, updateUserRow, userBriefs } from "../users/users.repository";
import {
  evidenceKey,
  expiredEvidence,
  filesOf,
  type NewEvidence,
  NO_EVIDENCE,
  openIdentity,
  openPhoto,
  photosOf,
  readReviewSubmission,
  removeEvidenceFiles,
  removeOrphanFiles,
  requireEvidenceRoom,
  writeEvidence,
} from "./evidence";
import { idHash, nameHash, verifySecret } from "./keyed-hash";
import { checkResult, createProvider, type ProviderDecision, providerKind } from "./provider";
import type { VerificationTable } from "./verify.table";

const REQUIRED_KEY = "verify_required_for_tunnels";
const DUPLICATE = "该身份证号码已用于其他账号的实名认证，一个身份证号码只能认证一个账号";
/** Submissions one customer may make a day (all modes): a redirect hold cannot be renewed for ever. */
const SUBMISSIONS_PER_DAY = 10;
const EXPIRED_REASON = "超过审核期限未处理，证件照片已删除，请重新提交";
/** A decision or photo read for a submission other than the one the reviewer opened. */
const STALE = "资料已更新，请重新审核";
/** A redirect hold on a number starts at most once a day per account (then runs its 30 minutes). */
const HOLD_RENEWAL_MS = 86400_000;
/** Refused accounts remembered on a claim (the newest). */
const MAX_REFUSED_CLAIMS = 20;

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
  return { ...present(row), required_for_tunnels: setting.required_for_tunnels, mode: providerKind(ctx.config) };
}

/** The users row mirrors the state (masked), for the profile, lists and overview counts. */
async function mirror(trx: Tx, uid: number, row: { status: number; name: string | null; id: string | null }) {
  await updateUserRow(trx, uid, { verify_status: row.status, real_name: row.name, id_number_masked: row.id });
}

/**
 * The columns that end a request: no hold, no claim, no name, no pending provider request, no
 * evidence. A request turning done puts back its claim and name hash (`done(row)`).
 */
const RELEASED = {
  id_hash: null,
  claim_hash: null,
  name_hash: null,
  held_until: null,
  request_id: null,
  refused_claims: null,
  ...NO_EVIDENCE,
} as const;

/**
 * What a request keeps once done: its number as the hold, the hash of its full name, and the
 * accounts refused its number (still a signal for operators).
 */
const done = (row: Pick<VerificationTable, "claim_hash" | "name_hash" | "refused_claims">) => ({
  id_hash: row.claim_hash,
  claim_hash: row.claim_hash,
  name_hash: row.name_hash,
  refused_claims: row.refused_claims,
});

/**
 * The submission an operator decides on: changes with every submission (a new sealed identity,
 * new files, a new time), so a decision carrying it applies to what the reviewer saw or to nothing.
 */
export function reviewVersion(
  row: Pick<
    VerificationTable,
    "uid" | "status" | "updated_at" | "claim_hash" | "evidence_identity" | "evidence_photos" | "request_id"
  >,
): string {
  const parts = [
    row.uid,
    row.status,
    row.updated_at,
    row.claim_hash,
    row.evidence_identity,
    row.evidence_photos,
    row.request_id,
  ];
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 32);
}

interface RefusedClaim {
  uid: number;
  at: string;
  provider: string;
}
const refusedOf = (row: Pick<VerificationTable, "refused_claims"> | undefined): RefusedClaim[] =>
  row?.refused_claims ? (JSON.parse(row.refused_claims) as RefusedClaim[]) : [];

/** This account's redirect hold starts of the last day, by number hash (older ones dropped). */
function recentHoldStarts(row: Pick<VerificationTable, "hold_starts"> | undefined, now: string) {
  const all = row?.hold_starts ? (JSON.parse(row.hold_starts) as Record<string, string>) : {};
  return Object.fromEntries(
    Object.entries(all).filter(([, at]) => Date.parse(now) - Date.parse(at) < HOLD_RENEWAL_MS),
  ) as Record<string, string>;
}

/**
 * Whether another account holds the number: refused (409) while it is verified there or its
 * redirect request is within its hold; a hold whose time is up is released on the way, so a
 * request nobody finishes never locks the number's owner out. `onRefused` is told the holder
 * before the refusal is thrown (the caller records it once the transaction is rolled back).
 */
async function refuseHeldElsewhere(
  trx: Tx,
  uid: number,
  hash: string,
  now: string,
  onRefused: (holder: number) => void,
): Promise<void> {
  const holder = await trx
    .selectFrom("verifications")
    .select(["uid", "status", "held_until"])
    .where("id_hash", "=", hash)
    .where("uid", "<>", uid)
    .executeTakeFirst();
  if (!holder) return;
  if (holder.status === ProcessStatus.Done) {
    onRefused(holder.uid);
    throw localDuplicated(DUPLICATE, "id_number");
  }
  if (holder.held_until && holder.held_until > now) {
    onRefused(holder.uid);
    const minutes = Math.max(1, Math.ceil((Date.parse(holder.held_until) - Date.parse(now)) / 60_000));
    throw localDuplicated(`该身份证号码正在其他账号的认证流程中，请 ${minutes} 分钟后再试`, "id_number");
  }
  await trx
    .updateTable("verifications")
    .set({ id_hash: null, held_until: null })
    .where("uid", "=", holder.uid)
    .where("id_hash", "=", hash)
    .where("status", "=", ProcessStatus.Processing)
    .execute();
}

/**
 * A request turns done: it takes the number, unless another account has verified it (then the
 * caller refuses); other accounts' unfinished holds of it are released (verification wins).
 * @returns the uid that verified the number first, or null when this request may have it
 */
async function takeNumber(trx: Tx, uid: number, hash: string | null): Promise<number | null> {
  if (!hash) return null;
  const done = await trx
    .selectFrom("verifications")
    .select("uid")
    .where("claim_hash", "=", hash)
    .where("status", "=", ProcessStatus.Done)
    .where("uid", "<>", uid)
    .executeTakeFirst();
  if (done) return done.uid;
  await trx
    .updateTable("verifications")
    .set({ id_hash: null, held_until: null })
    .where("id_hash", "=", hash)
    .where("uid", "<>", uid)
    .where("status", "=", ProcessStatus.Processing)
    .execute();
  return null;
}

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
 * Notes on the holder's request that `uid`'s submission of the number was refused because of it
 * (after the refused transaction rolled back), so operators see the number contested and by whom.
 * The holder is looked up again when not known (a verification that committed meanwhile).
 */
async function recordRefusal(ctx: AppContext, uid: number, hash: string, provider: string, holder: number | null) {
  await transact(ctx, async (trx) => {
    const holderUid =
      holder ??
      (
        await trx
          .selectFrom("verifications")
          .select("uid")
          .where("id_hash", "=", hash)
          .where("uid", "<>", uid)
          .executeTakeFirst()
      )?.uid;
    if (holderUid === undefined) return;
    await lockUser(trx, holderUid);
    const row = await findRow(trx, holderUid);
    if (!row || row.claim_hash !== hash) return;
    const claims = [...refusedOf(row).filter((c) => c.uid !== uid), { uid, at: nowIso(), provider }].slice(
      -MAX_REFUSED_CLAIMS,
    );
    await trx
      .updateTable("verifications")
      .set({ refused_claims: JSON.stringify(claims) })
      .where("uid", "=", holderUid)
      .execute();
  });
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
 * Customers with a review submission being read, per app: one at a time each, so one account
 * cannot buffer many sets of photos at once (a lock held while a slow client uploads would stall
 * the database; this process is the only one reading the upload).
 */
const reviewsInFlight = new WeakMap<AppContext, Set<number>>();

/**
 * A submission for an operator's review (manual mode; in the sandbox, what the manual mode
 * does): name, number and photos of the ID card, stored encrypted until the decision. One per
 * customer at a time; counted, keyed and the disk checked before the body is read; the photos
 * are written (disk checked again for their size) before the transaction and removed again when
 * it fails.
 */
export async function submitReview(ctx: AppContext, uid: number, req: FastifyRequest): Promise<VerifyStartResult> {
  const kind = providerKind(ctx.config);
  if (kind === "redirect") throw refused("当前实名认证方式不支持人工审核，请直接提交姓名和身份证号码");
  const busy = reviewsInFlight.get(ctx) ?? new Set<number>();
  reviewsInFlight.set(ctx, busy);
  if (busy.has(uid)) throw refused("你的另一份实名认证资料正在上传，请等待其完成后再提交");
  busy.add(uid);
  try {
    await evidenceKey(ctx);
    await countSubmission(ctx, uid);
    await requireEvidenceRoom(ctx, 0);
    const { body, photos } = await readReviewSubmission(req);
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

/**
 * Other accounts' current claims (processing or done) of the number a request claims, then the
 * accounts whose submission of it was refused because this request held it.
 */
async function contestedClaims(db: Kysely<DB>, row: VerificationTable): Promise<ContestedClaim[]> {
  if (!row.claim_hash) return [];
  const claims = await db
    .selectFrom("verifications")
    .select(["uid", "status", "provider"])
    .where("claim_hash", "=", row.claim_hash)
    .where("uid", "<>", row.uid)
    .where("status", "in", [ProcessStatus.Processing, ProcessStatus.Done])
    .orderBy("uid")
    .limit(50)
    .execute();
  const claiming = new Set(claims.map((c) => c.uid));
  return [
    ...claims.map((c) => ({ ...c, refused_at: null })),
    ...refusedOf(row)
      .filter((c) => !claiming.has(c.uid))
      .map((c) => ({ uid: c.uid, status: ProcessStatus.None, provider: c.provider, refused_at: c.at })),
  ];
}

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
 * Sends one photo of a manual review, decrypted, to the deciding Manager (never cached); every
 * view is audited. With the review's version, a photo of a later submission is refused (409).
 */
export async function sendVerifyPhoto(ctx: AppContext, operator: Operator, q: VerifyPhotoQuery, reply: FastifyReply) {
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
  return reply
    .header("content-type", photo.mime)
    .header("content-disposition", `inline; filename="${q.uid}-${q.kind}"`)
    .header("cache-control", "private, no-store")
    .header("x-content-type-options", "nosniff")
    .send(data);
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

/** Verifications in a given state (the operator's overview counts done and waiting ones). */
export function verificationsWith(db: Kysely<DB>, status: number): Figure {
  return db
    .selectFrom("verifications")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("status", "=", status);
}
