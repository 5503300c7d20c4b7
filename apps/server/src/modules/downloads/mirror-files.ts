import fs from "node:fs/promises";
import type { AppContext } from "../../context";
import { notFound } from "../../shared/errors";
import { mirrorFilePath } from "./mirror-paths";

/** A mirrored build to stream (frpc is ~15 MB: never read whole into memory). */
export interface MirroredFileInfo {
  path: string;
  name: string;
  size: number;
  etag: string;
}

/**
 * The mirrored file a public link names (GET /download/frp/<version>/<file>), or a 404: the name
 * must be a mirror file's exact shape (no separator, no "..": mirror-paths.ts) and a regular file
 * in its version's directory (a symlink there is not followed).
 */
export async function mirroredFile(ctx: AppContext, version: string, file: string): Promise<MirroredFileInfo> {
  const p = mirrorFilePath(ctx.config.DATA_DIR, version, file);
  const st = p ? await fs.lstat(p).catch(() => null) : null;
  if (!p || !st?.isFile()) throw notFound("客户端文件");
  // Size and modification time change with every rebuild (--force), so the tag does too.
  return {
    path: p,
    name: file,
    size: st.size,
    etag: `"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`,
  };
}
