import fs from "node:fs/promises";
import type { AppContext } from "../context";

const MB = 1024 * 1024;

/**
 * Whether `bytes` more can be written into `dir` (under DATA_DIR) leaving UPLOAD_MIN_FREE_MB free
 * on its disk. Customers' files give way first: a full disk would stop SQLite (the database and
 * its WAL live in DATA_DIR) and every write with it. An unreadable disk answers no, and is logged.
 */
export async function diskHasRoom(ctx: AppContext, dir: string, bytes: number): Promise<boolean> {
  const floor = ctx.config.UPLOAD_MIN_FREE_MB * MB;
  const st = await fs.statfs(dir).catch((err: Error) => {
    ctx.log.error({ err, dir }, "disk: free space unreadable, uploads refused");
    return null;
  });
  if (!st) return false;
  const free = st.bavail * st.bsize;
  if (free - bytes >= floor) return true;
  ctx.log.warn({ dir, free, floor }, "disk: free space below UPLOAD_MIN_FREE_MB, upload refused");
  return false;
}
