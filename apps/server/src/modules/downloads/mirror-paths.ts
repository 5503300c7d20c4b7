import path from "node:path";

/**
 * Where mirrored frp builds live and how they are named (docs/downloads.md): one directory per
 * version under DATA_DIR/mirror/frp/, files `frpc_<version>_<os>_<arch>[.exe]` (and frps_…), served
 * at /download/frp/<version>/<file>. The names are checked against this exact shape before any
 * file is touched, so a request can never name anything else.
 */
export const MIRROR_ROUTE_PREFIX = "/download/frp";

const VERSION = /^\d+\.\d+\.\d+$/;
const FILE = /^(frpc|frps)_(\d+\.\d+\.\d+)_([a-z]+)_([a-z0-9]+)(\.exe)?$/;

export function mirrorFileName(program: "frpc" | "frps", version: string, os: string, arch: string): string {
  return `${program}_${version}_${os}_${arch}${os === "windows" ? ".exe" : ""}`;
}

/** The file's path under DATA_DIR, or null when version or name is not a mirror file's exact shape. */
export function mirrorFilePath(dataDir: string, version: string, file: string): string | null {
  const m = FILE.exec(file);
  if (!VERSION.test(version) || !m || m[2] !== version || (m[5] === ".exe") !== (m[3] === "windows")) return null;
  return path.resolve(dataDir, "mirror", "frp", version, file);
}

export function mirrorDir(dataDir: string, version: string): string {
  return path.resolve(dataDir, "mirror", "frp", version);
}

/** The console's own link to a mirrored file: from PUBLIC_URL (never from a request), else a path. */
export function mirrorUrl(publicUrl: string | undefined, version: string, file: string): string {
  return `${(publicUrl ?? "").replace(/\/+$/, "")}${MIRROR_ROUTE_PREFIX}/${version}/${file}`;
}
