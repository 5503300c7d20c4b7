import { DownloadArches, DownloadOses, ErrorCode, UserStatus } from "@burrow/contract";
import type { AppContext } from "../../context";
import type { FileDownload } from "../../shared/download";
import { AppError, invalid, notFound, rateLimited } from "../../shared/errors";
import { clientKey } from "../../shared/rate-limit";
import { mirroredFrpc, userDownloads } from "../downloads/downloads.service";
import { tunnelConfig } from "../tunnels/frpc-config";
import { findUserAccess } from "../users/users.repository";
import { launchBase, launchTokenHash, launchTokenOwner, usableNode } from "./launch.service";
import { installScript, type LaunchTarget, startScript } from "./posix-scripts";
import { installPs1 } from "./windows-script";

/** The message a start wrapper prints and stops with once its token is gone. */
export const TOKEN_GONE = "启动令牌已失效（已在控制台更换或撤销），请在控制台复制新的安装命令重新安装";
/** …and once an frp token reset retired it (the answer to a leak reaches the installs too). */
export const TOKEN_RETIRED = "访问密钥已在控制台重置，启动令牌随之失效：请在控制台复制新的安装命令重新安装";
export const ACCOUNT_BANNED = "账户已被封禁，frpc 不再启动：请登录控制台查看原因或提交申诉";

/** Per address: the installs behind one NAT; an unknown token counts here (guessing is slow). */
export const LAUNCH_PER_IP = 120;
/** Per token: a start is two fetches; a service restarting every 10 s stays far below. */
export const LAUNCH_PER_TOKEN = 60;
const WINDOW_SEC = 60;

/** A 429 that carries its wait, for the Retry-After header of the plain-text answer (launch.routes.ts). */
export class LaunchLimited extends AppError {
  constructor(readonly retryAfterSec: number) {
    super(ErrorCode.RateLimited, 429, rateLimited(retryAfterSec).message);
  }
}

/** A fetch of an installer: the path's token and node, the file, the query, the caller's address. */
export interface LaunchFetch {
  token: string;
  nodeId: string;
  file: string;
  query: Record<string, unknown>;
  ip: string;
}

const text = (body: string, name: string): FileDownload => ({
  body,
  name,
  type: "text/plain; charset=utf-8",
  disposition: "inline",
});

/**
 * The build for the platform, as the wrapper reads it: "<sha256> <url>". The console's own mirror
 * first (served by the console, nothing else to trust), else the newest build an operator listed.
 */
async function frpcSource(ctx: AppContext, query: Record<string, unknown>): Promise<FileDownload> {
  const os = DownloadOses.find((o) => o === query.os);
  if (!os) throw invalid("os", "os 无效");
  const arch = DownloadArches.find((a) => a === query.arch);
  if (!arch) throw invalid("arch", "arch 无效");
  const row =
    (await mirroredFrpc(ctx, os, arch)) ?? (await userDownloads(ctx)).find((d) => d.os === os && d.arch === arch);
  if (!row) throw notFound(`${os}/${arch} 的 frpc 下载（请联系运营方添加）`);
  return text(`${row.checksum} ${row.url}\n`, "frpc.source");
}

/**
 * One file of `/launch/<token>/<node>/<file>`, or an AppError whose message the wrapper prints:
 * 401 for an unknown token, 403 for a banned account, 404 for a node without the customer's tunnels.
 */
export async function launchFile(ctx: AppContext, f: LaunchFetch): Promise<FileDownload> {
  const ip = await ctx.limiter.hit(`launch:ip:${clientKey(f.ip)}`, LAUNCH_PER_IP, WINDOW_SEC);
  if (!ip.allowed) throw new LaunchLimited(ip.retryAfterSec);
  const owner = await launchTokenOwner(ctx, f.token);
  if (owner === null) throw new AppError(ErrorCode.TokenExpired, 401, TOKEN_GONE);
  if (owner.retired) throw new AppError(ErrorCode.TokenExpired, 401, TOKEN_RETIRED);
  const { uid } = owner;
  const hits = await ctx.limiter.hit(`launch:token:${launchTokenHash(f.token)}`, LAUNCH_PER_TOKEN, WINDOW_SEC);
  if (!hits.allowed) throw new LaunchLimited(hits.retryAfterSec);
  if (!/^[1-9]\d{0,8}$/.test(f.nodeId)) throw invalid("node_id", "node_id 无效");
  const nodeId = Number(f.nodeId);
  const user = await findUserAccess(ctx.db, uid);
  if (!user || user.status === UserStatus.Erased) throw new AppError(ErrorCode.TokenExpired, 401, TOKEN_GONE);
  if (user.status !== UserStatus.Active) throw new AppError(ErrorCode.AccountBanned, 403, ACCOUNT_BANNED);

  if (f.file === "frpc.toml") {
    const cfg = await tunnelConfig(ctx, uid, { node_id: nodeId });
    return text(cfg.toml, cfg.filename);
  }
  if (f.file === "frpc") return frpcSource(ctx, f.query);
  const scripts: Record<string, (t: LaunchTarget) => string> = {
    "install.sh": installScript,
    "start.sh": startScript,
    "install.ps1": installPs1,
  };
  const build = Object.hasOwn(scripts, f.file) ? scripts[f.file] : undefined;
  if (!build) throw notFound("文件");
  const at = launchBase(ctx);
  if (at.base === null) throw new AppError(ErrorCode.BusinessRefused, 503, at.missing);
  const node = await usableNode(ctx, uid, nodeId);
  return text(build({ base: at.base, token: f.token, nodeId, nodeName: node.name }), f.file);
}
