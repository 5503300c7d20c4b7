import { hkdfSync, randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import {
  VERIFY_EVIDENCE_DAYS,
  VERIFY_PHOTO_KINDS,
  VERIFY_PHOTO_LABELS,
  VERIFY_PHOTO_MAX_BYTES,
  VERIFY_PHOTO_REQUIRED,
  type VerifyBody,
  type VerifyPhotoKind,
  VerifyReviewFields,
} from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { diskHasRoom } from "../../shared/disk";
import { invalid, refused } from "../../shared/errors";
import { openBytes, openText, type SecretKeySource, sealBytes, sealText, secretKey } from "../../shared/secret-box";
import { TOO_LARGE, type UploadReader } from "../../shared/upload";
import { sniffImage } from "../users/avatars";
import type { VerificationTable } from "./verify.table";

/*
 * What a manual review is decided on: the full name and number and photos of the ID card. Kept
 * only while the request waits for an operator, encrypted (AES-256-GCM) with a random key per
 * request; that key is sealed under the evidence key, derived (HKDF) from VERIFY_ID_SECRET. The
 * request's evidence columns are emptied and its files deleted at the decision, so neither the
 * files nor a later copy of them can be read after it (the key is gone with the columns).
 */

/** The server's evidence key: refused in production without VERIFY_ID_SECRET (it would sit in the database). */
export const EVIDENCE_SECRET_MISSING =
  "服务端未配置实名认证资料的加密密钥（VERIFY_ID_SECRET），暂不能提交人工审核，请联系客服";

const evidenceKeySource = (ctx: AppContext): SecretKeySource => ({
  env: ctx.config.VERIFY_ID_SECRET,
  // The ID-number hash's generated secret (verify.service.ts), so one secret serves both outside production.
  setting: "verify_id_secret",
  derive: (secret) => Buffer.from(hkdfSync("sha256", secret, "burrow-verify", "evidence-v1", 32)),
  missing: EVIDENCE_SECRET_MISSING,
});

export const evidenceKey = (ctx: AppContext): Promise<Buffer> => secretKey(ctx, evidenceKeySource(ctx));

const MIME: Record<string, string> = { png: "image/png", jpg: "image/jpeg", webp: "image/webp" };
const MAX_MB = VERIFY_PHOTO_MAX_BYTES / 1024 / 1024;
/** Stored names are ours alone. */
const SAFE_NAME = /^\d+-[0-9a-f]{24}\.bin$/;
/** A file older than this with no row naming it is a leftover (a crash between write and commit). */
const ORPHAN_AGE_MS = 3600_000;

export const evidenceDir = (ctx: AppContext) => path.resolve(ctx.config.DATA_DIR, "uploads", "verify");

const NO_ROOM = "服务器存储空间不足，暂时不能提交证件照片，请稍后再试";

/**
 * Refuses (403) photos of `bytes` that would leave less than UPLOAD_MIN_FREE_MB free on the data
 * disk (shared/disk.ts: a full disk stops SQLite); with 0, before a submission is read at all.
 */
export async function requireEvidenceRoom(ctx: AppContext, bytes: number): Promise<void> {
  const dir = evidenceDir(ctx);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  if (!(await diskHasRoom(ctx, dir, bytes))) throw refused(NO_ROOM);
}

export interface PhotoUpload {
  kind: VerifyPhotoKind;
  data: Buffer;
  mime: string;
}

export interface StoredPhoto {
  kind: VerifyPhotoKind;
  file: string;
  mime: string;
  size: number;
}

const isKind = (k: string): k is VerifyPhotoKind => (VERIFY_PHOTO_KINDS as readonly string[]).includes(k);

/**
 * Reads a review submission (multipart): the fields real_name and id_number, checked like
 * POST /user/verify, and the photos id_front, id_back (required) and id_hand (optional), each at
 * most VERIFY_PHOTO_MAX_BYTES, png, jpg or webp by its first bytes (the client's type and name
 * are ignored). Anything else — another field, a photo twice, a fourth file — is refused (400).
 */
export async function readReviewSubmission(upload: UploadReader): Promise<{ body: VerifyBody; photos: PhotoUpload[] }> {
  if (!upload.isMultipart) throw invalid("id_front", "请上传身份证照片");
  const fields: Record<string, string> = {};
  const photos = new Map<VerifyPhotoKind, PhotoUpload>();
  const parts = upload.parts({
    fileSize: VERIFY_PHOTO_MAX_BYTES,
    files: VERIFY_PHOTO_KINDS.length,
    fields: 2,
    fieldSize: 256,
    parts: VERIFY_PHOTO_KINDS.length + 2,
  });
  try {
    for await (const part of parts) {
      if (part.type === "field") {
        if (part.name !== "real_name" && part.name !== "id_number") throw invalid(part.name, "不支持的字段");
        if (part.name in fields || part.truncated) throw invalid(part.name, "字段重复或过长");
        fields[part.name] = part.value;
        continue;
      }
      const kind = part.name;
      if (!isKind(kind)) throw invalid(kind, "不支持的照片字段（id_front、id_back、id_hand）");
      if (photos.has(kind)) throw invalid(kind, `${VERIFY_PHOTO_LABELS[kind]}只能上传一张`);
      const data = await part.bytes();
      if (data === TOO_LARGE) throw invalid(kind, `${VERIFY_PHOTO_LABELS[kind]}不能超过 ${MAX_MB} MB`);
      const ext = sniffImage(data);
      if (!ext || !MIME[ext]) throw invalid(kind, `${VERIFY_PHOTO_LABELS[kind]}仅支持 png、jpg、webp 图片`);
      photos.set(kind, { kind, data, mime: MIME[ext] });
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === "FST_FILES_LIMIT" || code === "FST_PARTS_LIMIT" || code === "FST_FIELDS_LIMIT")
      throw invalid("id_hand", `最多上传 ${VERIFY_PHOTO_KINDS.length} 张照片（人像面、国徽面、手持照片）`);
    if (code === "FST_REQ_FILE_TOO_LARGE") throw invalid("id_front", `每张照片不能超过 ${MAX_MB} MB`);
    throw err;
  }
  // The same rules (and 400 naming the field) as the JSON submission.
  const body = VerifyReviewFields.parse(fields);
  for (const kind of VERIFY_PHOTO_REQUIRED)
    if (!photos.has(kind)) throw invalid(kind, `请上传${VERIFY_PHOTO_LABELS[kind]}照片`);
  return { body, photos: [...photos.values()] };
}

const keyAad = (uid: number) => `verify-evidence:${uid}`;
const identityAad = (uid: number) => `verify-identity:${uid}`;
const photoAad = (uid: number, p: { kind: string; file: string }) => `verify-photo:${uid}:${p.kind}:${p.file}`;

/** The evidence columns of a new submission (its files are written by then). */
export interface NewEvidence {
  evidence_key: string;
  evidence_identity: string;
  evidence_photos: string;
  evidence_expires_at: string;
  files: string[];
}

/** The evidence columns of a request without evidence (a decision, a provider's request). */
export const NO_EVIDENCE = {
  evidence_key: null,
  evidence_identity: null,
  evidence_photos: null,
  evidence_expires_at: null,
} as const;

/**
 * Encrypts and writes the photos (0600 files in a 0700 directory) under a fresh key, and seals
 * that key and the identity. The caller stores the columns; on failure it removes `files`.
 */
export async function writeEvidence(
  ctx: AppContext,
  uid: number,
  identity: { real_name: string; id_number: string },
  uploads: PhotoUpload[],
  now = new Date(),
): Promise<NewEvidence> {
  const master = await evidenceKey(ctx);
  const key = randomBytes(32);
  const dir = evidenceDir(ctx);
  await requireEvidenceRoom(
    ctx,
    uploads.reduce((n, u) => n + u.data.length, 0),
  );
  const photos: StoredPhoto[] = [];
  try {
    for (const u of uploads) {
      const p: StoredPhoto = {
        kind: u.kind,
        file: `${uid}-${randomBytes(12).toString("hex")}.bin`,
        mime: u.mime,
        size: u.data.length,
      };
      photos.push(p);
      await fs.writeFile(path.join(dir, p.file), sealBytes(key, u.data, photoAad(uid, p)), { mode: 0o600, flag: "wx" });
    }
  } catch (err) {
    await removeEvidenceFiles(
      ctx,
      photos.map((p) => p.file),
    );
    if ((err as NodeJS.ErrnoException).code === "ENOSPC") {
      ctx.log.error({ err }, "verify: the disk is full, review photos refused");
      throw refused(NO_ROOM);
    }
    throw err;
  }
  return {
    evidence_key: sealText(master, key.toString("base64url"), keyAad(uid)),
    evidence_identity: sealText(key, JSON.stringify(identity), identityAad(uid)),
    evidence_photos: JSON.stringify(photos),
    evidence_expires_at: new Date(now.getTime() + VERIFY_EVIDENCE_DAYS * 86400_000).toISOString(),
    files: photos.map((p) => p.file),
  };
}

/** A request's row as far as its evidence goes. */
export type EvidenceRow = Pick<
  VerificationTable,
  "uid" | "evidence_key" | "evidence_identity" | "evidence_photos" | "evidence_expires_at"
>;

export const photosOf = (row: Pick<EvidenceRow, "evidence_photos">): StoredPhoto[] =>
  row.evidence_photos ? (JSON.parse(row.evidence_photos) as StoredPhoto[]) : [];

/** The files of a request's evidence, to remove once its columns are emptied (after the commit). */
export const filesOf = (row: Pick<EvidenceRow, "evidence_photos"> | undefined): string[] =>
  row ? photosOf(row).map((p) => p.file) : [];

export async function removeEvidenceFiles(ctx: AppContext, files: string[]): Promise<void> {
  for (const f of files) if (SAFE_NAME.test(f)) await fs.rm(path.join(evidenceDir(ctx), f), { force: true });
}

async function requestKey(ctx: AppContext, row: EvidenceRow): Promise<Buffer> {
  if (!row.evidence_key) throw new Error("verify: no evidence key");
  return Buffer.from(openText(await evidenceKey(ctx), row.evidence_key, keyAad(row.uid)), "base64url");
}

/** The full name and number of a review (for the reviewer only). */
export async function openIdentity(
  ctx: AppContext,
  row: EvidenceRow,
): Promise<{ real_name: string; id_number: string }> {
  if (!row.evidence_identity) throw new Error("verify: no evidence identity");
  return JSON.parse(openText(await requestKey(ctx, row), row.evidence_identity, identityAad(row.uid)));
}

/** One photo's bytes, decrypted, or null when it is not there. */
export async function openPhoto(ctx: AppContext, row: EvidenceRow, kind: VerifyPhotoKind): Promise<Buffer | null> {
  const p = photosOf(row).find((x) => x.kind === kind);
  if (!p || !SAFE_NAME.test(p.file)) return null;
  const sealed = await fs.readFile(path.join(evidenceDir(ctx), p.file)).catch(() => null);
  if (!sealed) return null;
  return openBytes(await requestKey(ctx, row), sealed, photoAad(row.uid, p));
}

/** Requests whose evidence's time is up (VERIFY_EVIDENCE_DAYS after the submission). */
export const expiredEvidence = (db: Kysely<DB>, now: Date, limit: number) =>
  db
    .selectFrom("verifications")
    .select("uid")
    .where("evidence_expires_at", "<=", now.toISOString())
    .orderBy("evidence_expires_at")
    .limit(limit)
    .execute();

/** Removes files no row names any more that are older than an hour (left by a crash). */
export async function removeOrphanFiles(ctx: AppContext, now: Date): Promise<number> {
  const names = await fs.readdir(evidenceDir(ctx)).catch(() => [] as string[]);
  if (!names.length) return 0;
  const rows = await ctx.db
    .selectFrom("verifications")
    .select("evidence_photos")
    .where("evidence_photos", "is not", null)
    .execute();
  const known = new Set(rows.flatMap((r) => filesOf(r)));
  let removed = 0;
  for (const name of names) {
    if (!SAFE_NAME.test(name) || known.has(name)) continue;
    const stat = await fs.stat(path.join(evidenceDir(ctx), name)).catch(() => null);
    if (!stat || now.getTime() - stat.mtimeMs < ORPHAN_AGE_MS) continue;
    await removeEvidenceFiles(ctx, [name]);
    removed++;
  }
  return removed;
}
