import type { Kysely } from "kysely";
import { ConfigSchema } from "../config";
import type { DB } from "../db/schema";
import { DEFAULT_PLATFORMS, MirrorError } from "../modules/downloads/frp-build";
import { type MirroredFile, mirrorFrp } from "../modules/downloads/frp-mirror";
import { FRP_VERSION } from "../modules/nodes/frps-config";

export const FRP_MIRROR_USAGE = `  frp-mirror [--version ${FRP_VERSION}] [--platforms ${DEFAULT_PLATFORMS.slice(0, 2).join(",")},…] [--force]
                           builds frpc and frps from the Go module proxy (needs Go) into
                           DATA_DIR/mirror/frp/<version>/ and lists each frpc on /download with
                           its SHA-256 (docs/downloads.md); platforms by default:
                           ${DEFAULT_PLATFORMS.join(", ")}
`;

/** The command's options, or a message saying what is wrong with them. */
export function parseMirrorArgs(args: string[]): { version: string; platforms?: string[]; force: boolean } | string {
  const o = { version: FRP_VERSION, platforms: undefined as string[] | undefined, force: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    const [flag, inline] = a.includes("=") ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] : [a, undefined];
    if (flag === "--force") o.force = true;
    else if (flag === "--version" || flag === "--platforms") {
      const value = inline ?? args[++i];
      if (!value) return `${flag} needs a value`;
      if (flag === "--version") o.version = value;
      else
        o.platforms = value
          .split(",")
          .map((p) => p.trim())
          .filter(Boolean);
    } else return `unknown option ${a}`;
  }
  return o;
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

function table(rows: MirroredFile[]): string {
  const cells = [
    ["platform", "file", "size", "sha256", "status"],
    ...rows.map((r) => [r.platform, r.file, mb(r.size), r.sha256, r.status]),
  ];
  const widths = cells[0]?.map((_, i) => Math.max(...cells.map((c) => (c[i] as string).length))) ?? [];
  return cells
    .map((c) =>
      c
        .map((v, i) => v.padEnd(widths[i] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/** `npm run admin -- frp-mirror …`: 0 when every platform is mirrored, 1 with the reason otherwise. */
export async function frpMirrorCommand(db: Kysely<DB>, args: string[]): Promise<number> {
  const opts = parseMirrorArgs(args);
  if (typeof opts === "string") {
    process.stderr.write(`${opts}\n\nUsage: npm run admin -- frp-mirror\n${FRP_MIRROR_USAGE}`);
    return 2;
  }
  // Only what the mirror needs, checked as at start (the rest of the server's settings are not its business).
  const shape = ConfigSchema.shape;
  const url = shape.PUBLIC_URL.safeParse(process.env.PUBLIC_URL);
  if (!url.success) {
    process.stderr.write(`PUBLIC_URL: ${url.error.issues[0]?.message}\n`);
    return 1;
  }
  const config = { DATA_DIR: shape.DATA_DIR.parse(process.env.DATA_DIR), PUBLIC_URL: url.data };
  try {
    const started = Date.now();
    const done = await mirrorFrp({ db, config }, { ...opts, log: (line) => process.stdout.write(`${line}\n`) });
    process.stdout.write(`${table(done)}\n`);
    const built = done.filter((d) => d.status === "built").length;
    process.stdout.write(
      `frp ${opts.version}: ${built} file(s) built, ${done.length - built} already mirrored, in ${Math.round((Date.now() - started) / 1000)} s.\n`,
    );
    return 0;
  } catch (err) {
    if (err instanceof MirrorError) {
      process.stderr.write(`${err.message}\n`);
      return 1;
    }
    throw err;
  }
}
