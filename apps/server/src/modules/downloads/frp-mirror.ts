import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { Kysely } from "kysely";
import type { Config } from "../../config";
import type { DB } from "../../db/schema";
import { nowIso } from "../../shared/time";
import { audit } from "../audit/audit";
import {
  buildPlatform,
  DEFAULT_PLATFORMS,
  DEFAULT_VERSIONS_DIR,
  goVersion,
  knownVersions,
  MIRROR_PLATFORMS,
  MirrorError,
  type MirrorPlatform,
  sha256File,
} from "./frp-build";
import { mirrorDir, mirrorFileName, mirrorUrl } from "./mirror-paths";

/**
 * `npm run admin -- frp-mirror` (docs/downloads.md): the console builds frpc and frps itself and
 * lists each frpc build on /download with its SHA-256, so customers never depend on a foreign
 * download site. Idempotent: a platform whose two files exist and match their recorded hashes is
 * not rebuilt (unless `force`); its row is still brought up to date.
 */
export interface MirrorOptions {
  version: string;
  platforms?: string[];
  force?: boolean;
  versionsDir?: string;
  goBin?: string;
  /** progress lines for the operator ("building linux/arm64…") */
  log?: (line: string) => void;
}

export interface MirroredFile {
  platform: MirrorPlatform;
  program: "frpc" | "frps";
  file: string;
  size: number;
  sha256: string;
  status: "built" | "skipped";
}

type MirrorCtx = { db: Kysely<DB>; config: Pick<Config, "DATA_DIR" | "PUBLIC_URL"> };

/** Checks what the operator asked for before anything is built; errors name what is known. */
async function checkRequest(ctx: MirrorCtx, o: MirrorOptions, versionsDir: string): Promise<MirrorPlatform[]> {
  if (!ctx.config.PUBLIC_URL)
    throw new MirrorError(
      "PUBLIC_URL is not set: the download links of mirrored builds are the console's own address (docs/deploy.md).",
    );
  const known = await knownVersions(versionsDir);
  if (!known.includes(o.version.replace(/^v/, "")))
    throw new MirrorError(
      `Unknown frp version ${o.version}: the pinned versions are ${known.join(", ") || "(none)"} ` +
        `(tools/frp/versions/; docs/downloads.md says how to add one).`,
    );
  const platforms = o.platforms?.length ? o.platforms : DEFAULT_PLATFORMS;
  const bad = platforms.filter((p) => !(p in MIRROR_PLATFORMS));
  if (bad.length)
    throw new MirrorError(`Unknown platform ${bad.join(", ")}: choose from ${DEFAULT_PLATFORMS.join(", ")}.`);
  return [...new Set(platforms)] as MirrorPlatform[];
}

/** A file and its recorded hash (`<file>.sha256`, sha256sum's format), when both are there and agree. */
async function recordedHash(file: string): Promise<string | null> {
  const line = await fs.readFile(`${file}.sha256`, "utf8").catch(() => null);
  const want = line?.split(/\s+/)[0];
  if (!want || !(await fs.stat(file).catch(() => null))) return null;
  return (await sha256File(file)) === want ? want : null;
}

async function recordHash(file: string): Promise<string> {
  const sum = await sha256File(file);
  const tmp = `${file}.sha256.${randomBytes(6).toString("hex")}`;
  await fs.writeFile(tmp, `${sum}  ${path.basename(file)}\n`);
  await fs.rename(tmp, `${file}.sha256`);
  return sum;
}

/** Builds (or keeps) every platform's frpc and frps and upserts the frpc rows; returns what it did. */
export async function mirrorFrp(ctx: MirrorCtx, o: MirrorOptions): Promise<MirroredFile[]> {
  const versionsDir = o.versionsDir ?? DEFAULT_VERSIONS_DIR;
  const version = o.version.replace(/^v/, "");
  const platforms = await checkRequest(ctx, o, versionsDir);
  const dataDir = ctx.config.DATA_DIR;
  let checkedGo = false;
  const done: MirroredFile[] = [];
  for (const platform of platforms) {
    const { os, arch } = MIRROR_PLATFORMS[platform];
    const paths = {
      frpc: path.join(mirrorDir(dataDir, version), mirrorFileName("frpc", version, os, arch)),
      frps: path.join(mirrorDir(dataDir, version), mirrorFileName("frps", version, os, arch)),
    };
    const kept = o.force ? [null, null] : await Promise.all([recordedHash(paths.frpc), recordedHash(paths.frps)]);
    const status = kept[0] && kept[1] ? "skipped" : "built";
    if (status === "built") {
      if (!checkedGo) {
        const go = await goVersion(o.goBin);
        o.log?.(go);
        checkedGo = true;
      }
      o.log?.(`building frpc and frps ${version} for ${platform}…`);
      await buildPlatform({ dataDir, versionsDir, version, platform, goBin: o.goBin });
    }
    for (const program of ["frpc", "frps"] as const) {
      const file = paths[program];
      const sha256 = status === "skipped" ? (kept[program === "frpc" ? 0 : 1] as string) : await recordHash(file);
      const { size } = await fs.stat(file);
      done.push({ platform, program, file: path.basename(file), size, sha256, status });
    }
    const frpc = done[done.length - 2] as MirroredFile;
    await upsertRow(ctx, { os, arch, version, file: frpc.file, size: frpc.size, sha256: frpc.sha256 });
  }
  return done;
}

/**
 * One client_downloads row per os/arch/version (the unique index): a mirrored build takes over a
 * hand-typed row rather than sitting beside it. An audit row whenever something changed.
 */
async function upsertRow(
  ctx: MirrorCtx,
  b: { os: string; arch: string; version: string; file: string; size: number; sha256: string },
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom("client_downloads")
      .selectAll()
      .where("os", "=", b.os)
      .where("arch", "=", b.arch)
      .where("version", "=", b.version)
      .executeTakeFirst();
    const url = mirrorUrl(ctx.config.PUBLIC_URL, b.version, b.file);
    // An operator's note on a row already mirrored is kept; a hand-typed row's note described its old link.
    const note = before?.mirror_file ? before.note : `控制台镜像${b.arch === "arm" ? " · ARMv7" : ""}`;
    const next = { url, checksum: b.sha256, mirror_file: b.file, size: b.size, note };
    if (before && Object.entries(next).every(([k, v]) => before[k as keyof typeof before] === v)) return;
    const row = await trx
      .insertInto("client_downloads")
      .values({ os: b.os, arch: b.arch, version: b.version, sort: 0, created_at: nowIso(), ...next })
      .onConflict((oc) => oc.columns(["os", "arch", "version"]).doUpdateSet(next))
      .returning("id")
      .executeTakeFirstOrThrow();
    // No operator signed in: the server's command line did it (as reset-password).
    await audit(trx, {
      operatorUid: 0,
      action: "download.mirror",
      target: `download:${row.id}`,
      detail: before ? { before: { url: before.url, checksum: before.checksum }, after: next } : next,
      ip: "cli",
    });
  });
}
