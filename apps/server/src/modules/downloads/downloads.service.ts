import type { CreateDownloadBody, DownloadListQuery, DownloadRow, Paged, UpdateDownloadBody } from "@burrow/contract";
import type { Selectable } from "kysely";
import type { AppContext } from "../../context";
import type { Operator } from "../../shared/actor";
import { invalid, localDuplicated, notFound } from "../../shared/errors";
import { pageOfQuery } from "../../shared/paging";
import { nowIso } from "../../shared/time";
import { audit } from "../audit/audit";
import type { ClientDownloadTable } from "./downloads.table";
import { mirrorUrl } from "./mirror-paths";

type Stored = Selectable<ClientDownloadTable>;

/** A stored row as the contract shows it; a mirrored row's link follows the current PUBLIC_URL. */
function present(ctx: AppContext, r: Stored): DownloadRow {
  const { mirror_file, ...row } = r;
  const url =
    mirror_file && ctx.config.PUBLIC_URL ? mirrorUrl(ctx.config.PUBLIC_URL, row.version, mirror_file) : row.url;
  return { ...row, url, mirrored: mirror_file !== null, size: row.size ?? null } as DownloadRow;
}

/** Newest version first (numeric collation: 0.70.1 > 0.9.0), then sort, os and arch. */
function byVersionDesc(a: DownloadRow, b: DownloadRow): number {
  const v = b.version.replace(/^v/, "").localeCompare(a.version.replace(/^v/, ""), "en", { numeric: true });
  return v || a.sort - b.sort || a.os.localeCompare(b.os) || a.arch.localeCompare(b.arch);
}

/** Operators' list of frpc builds, filtered by os and version. */
export function listDownloads(ctx: AppContext, q: DownloadListQuery): Promise<Paged<DownloadRow>> {
  let sel = ctx.db.selectFrom("client_downloads");
  if (q.os) sel = sel.where("os", "=", q.os);
  if (q.version) sel = sel.where("version", "=", q.version);
  return pageOfQuery(
    q,
    sel,
    (s) => s.selectAll().orderBy("sort", "asc").orderBy("id", "desc"),
    (r) => present(ctx, r),
  );
}

/** Every build for customers, newest version first (a short list: no paging). */
export async function userDownloads(ctx: AppContext): Promise<DownloadRow[]> {
  const rows = (await ctx.db.selectFrom("client_downloads").selectAll().execute()).map((r) => present(ctx, r));
  return rows.sort(byVersionDesc);
}

/** The newest mirrored frpc build for a platform (its link the console's own), or null (frps files are served, not rows). */
export async function mirroredFrpc(
  ctx: AppContext,
  os: DownloadRow["os"],
  arch: DownloadRow["arch"],
): Promise<DownloadRow | null> {
  const rows = await ctx.db
    .selectFrom("client_downloads")
    .selectAll()
    .where("os", "=", os)
    .where("arch", "=", arch)
    .where("mirror_file", "is not", null)
    .execute();
  return rows.map((r) => present(ctx, r)).sort(byVersionDesc)[0] ?? null;
}

async function assertBuildFree(
  ctx: AppContext,
  b: { os: string; arch: string; version: string },
  exceptId?: number,
): Promise<void> {
  let q = ctx.db
    .selectFrom("client_downloads")
    .select("id")
    .where("os", "=", b.os)
    .where("arch", "=", b.arch)
    .where("version", "=", b.version);
  if (exceptId) q = q.where("id", "<>", exceptId);
  if (await q.executeTakeFirst()) throw localDuplicated("该系统、架构和版本的客户端已存在", "version");
}

/** Publishes a build; one per os, arch and version (40008). */
export async function createDownload(ctx: AppContext, op: Operator, body: CreateDownloadBody): Promise<DownloadRow> {
  await assertBuildFree(ctx, body);
  return ctx.db.transaction().execute(async (trx) => {
    const r = await trx
      .insertInto("client_downloads")
      .values({ ...body, created_at: nowIso() })
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(trx, {
      operatorUid: op.uid,
      action: "download.create",
      target: `download:${r.id}`,
      detail: body,
      ip: op.ip,
    });
    return present(ctx, r);
  });
}

/** Edits a build. */
export async function updateDownload(ctx: AppContext, op: Operator, body: UpdateDownloadBody): Promise<DownloadRow> {
  const cur = await ctx.db.selectFrom("client_downloads").selectAll().where("id", "=", body.id).executeTakeFirst();
  if (!cur) throw notFound("客户端");
  const { id, ...changes } = body;
  // A mirrored build's link and hash are the file's own (frp-mirror keeps them); only note and sort are the operator's.
  if (cur.mirror_file)
    for (const f of ["os", "arch", "version", "url", "checksum"] as const)
      if (changes[f] !== undefined && changes[f] !== cur[f])
        throw invalid(f, "控制台镜像的构建由 frp-mirror 命令维护，只能修改备注和排序");
  const next = { ...cur, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) };
  await assertBuildFree(ctx, next, id);
  return ctx.db.transaction().execute(async (trx) => {
    if (Object.keys(changes).length)
      await trx
        .updateTable("client_downloads")
        .set({
          os: next.os,
          arch: next.arch,
          version: next.version,
          url: next.url,
          checksum: next.checksum,
          note: next.note,
          sort: next.sort,
        })
        .where("id", "=", id)
        .execute();
    await audit(trx, {
      operatorUid: op.uid,
      action: "download.update",
      target: `download:${id}`,
      detail: body,
      ip: op.ip,
    });
    return present(
      ctx,
      await trx.selectFrom("client_downloads").selectAll().where("id", "=", id).executeTakeFirstOrThrow(),
    );
  });
}

/** Removes a build. */
export async function deleteDownload(ctx: AppContext, op: Operator, id: number): Promise<void> {
  const cur = await ctx.db.selectFrom("client_downloads").select("id").where("id", "=", id).executeTakeFirst();
  if (!cur) throw notFound("客户端");
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom("client_downloads").where("id", "=", id).execute();
    await audit(trx, { operatorUid: op.uid, action: "download.delete", target: `download:${id}`, ip: op.ip });
  });
}
