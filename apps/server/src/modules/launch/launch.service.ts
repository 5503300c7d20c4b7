import { createHash } from "node:crypto";
import { type LaunchCommands, type LaunchTokenView, NodeStatus } from "@burrow/contract";
import type { AppContext } from "../../context";
import { notFound } from "../../shared/errors";
import { randomToken } from "../../shared/ids";
import { nowIso } from "../../shared/time";
import type { NodeRow } from "../nodes/nodes.table";
import { getPlanLimits } from "../subscriptions/quota";
import { nodeWithLevel } from "../tunnels/tunnels.repository";
import { frpTokenOf } from "../users/users.repository";
import { launchCommands } from "./scripts";

/** Launch tokens' shape: `bl` and 32 base64url characters (192 random bits), safe in a URL path. */
export const LAUNCH_TOKEN = /^bl[A-Za-z0-9_-]{32}$/;

export const launchTokenHash = (token: string): string => createHash("sha256").update(token).digest("hex");

const present = (r: { token: string; created_at: string } | undefined): LaunchTokenView => ({
  token: r?.token ?? null,
  created_at: r?.created_at ?? null,
});

/** The hash a launch token is bound to: the customer's current frp token's (a reset retires the launch token). */
async function frpBinding(ctx: AppContext, uid: number): Promise<string> {
  return launchTokenHash((await frpTokenOf(ctx.db, uid)) ?? "");
}

const freshToken = (frpTokenHash: string) => {
  const token = `bl${randomToken(24)}`;
  return { token, token_hash: launchTokenHash(token), frp_token_hash: frpTokenHash, created_at: nowIso() };
};

/** The customer's token row while it is bound to the current frp token (a retired one counts as none). */
async function currentRow(ctx: AppContext, uid: number, binding: string) {
  return ctx.db
    .selectFrom("launch_tokens")
    .select(["token", "created_at"])
    .where("uid", "=", uid)
    .where("frp_token_hash", "=", binding)
    .executeTakeFirst();
}

/** The customer's launch token, or nulls when none is issued (or it was retired by an frp token reset). */
export async function launchToken(ctx: AppContext, uid: number): Promise<LaunchTokenView> {
  return present(await currentRow(ctx, uid, await frpBinding(ctx, uid)));
}

/**
 * The customer's token, issued on first use (or after an frp token reset retired the last one);
 * two first uses at once keep the one that landed first (the retired row is replaced only while
 * it is still the retired one).
 */
export async function ensureLaunchToken(ctx: AppContext, uid: number): Promise<LaunchTokenView> {
  const binding = await frpBinding(ctx, uid);
  const cur = await currentRow(ctx, uid, binding);
  if (cur) return present(cur);
  const row = freshToken(binding);
  await ctx.db
    .insertInto("launch_tokens")
    .values({ uid, ...row })
    .onConflict((oc) => oc.column("uid").doUpdateSet(row).where("launch_tokens.frp_token_hash", "<>", binding))
    .execute();
  return present(await currentRow(ctx, uid, binding));
}

/** A new token replacing the old one (one statement: concurrent rotations leave exactly one). */
export async function rotateLaunchToken(ctx: AppContext, uid: number): Promise<LaunchTokenView> {
  const binding = await frpBinding(ctx, uid);
  const row = freshToken(binding);
  await ctx.db
    .insertInto("launch_tokens")
    .values({ uid, ...row })
    .onConflict((oc) => oc.column("uid").doUpdateSet(row))
    .execute();
  return present(await currentRow(ctx, uid, binding));
}

/** Drops the token: every install stops at its next start; the next 一键启动 card issues a new one. */
export async function revokeLaunchToken(ctx: AppContext, uid: number): Promise<LaunchTokenView> {
  await ctx.db.deleteFrom("launch_tokens").where("uid", "=", uid).execute();
  return present(undefined);
}

/**
 * Whose token this is: looked up by its SHA-256 (an index probe on a hash, so the lookup's timing
 * says nothing about how much of a guess matched), with whether an frp token reset retired it.
 */
export async function launchTokenOwner(
  ctx: AppContext,
  token: string,
): Promise<{ uid: number; retired: boolean } | null> {
  if (!LAUNCH_TOKEN.test(token)) return null;
  const row = await ctx.db
    .selectFrom("launch_tokens")
    .select(["uid", "frp_token_hash"])
    .where("token_hash", "=", launchTokenHash(token))
    .executeTakeFirst();
  if (!row) return null;
  return { uid: row.uid, retired: row.frp_token_hash !== (await frpBinding(ctx, row.uid)) };
}

/** Why there are no installers: the console's own address is unknown (never taken from a request). */
export const NO_PUBLIC_URL =
  "请先由运营方设置 PUBLIC_URL（控制台的公网地址）：安装命令从它下载配置，不会采用浏览器请求中的地址";
/** …or it is plain http: a root shell piped from it would be anyone's on the path (review R1 F4). */
export const PUBLIC_URL_NOT_HTTPS =
  "PUBLIC_URL 不是 https 地址：安装命令以管理员权限运行下载的脚本，明文传输可被途中篡改，请运营方改用 https";

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/** The base the installers fetch from, or why there is none (https, or loopback for a machine's own tests). */
export function launchBase(ctx: AppContext): { base: string; missing: null } | { base: null; missing: string } {
  const base = ctx.config.PUBLIC_URL;
  if (!base) return { base: null, missing: NO_PUBLIC_URL };
  const url = new URL(base);
  if (url.protocol !== "https:" && !LOOPBACK.test(url.hostname)) return { base: null, missing: PUBLIC_URL_NOT_HTTPS };
  return { base, missing: null };
}

/**
 * A node the customer may use (on the shelf, within the plan's level), else 404: installers name
 * the node, and other nodes' names are not the customer's to read (review R1 F6).
 */
export async function usableNode(ctx: AppContext, uid: number, nodeId: number): Promise<NodeRow> {
  const found = await nodeWithLevel(ctx.db, nodeId);
  const limits = found && found.node.status !== NodeStatus.OffShelf ? await getPlanLimits(ctx.db, uid) : null;
  if (!found || !limits || found.level > limits.level) throw notFound("节点");
  return found.node;
}

/** The one-line installers of a node for the customer, issuing the token on first use. */
export async function commandsFor(ctx: AppContext, uid: number, nodeId: number): Promise<LaunchCommands> {
  const { name } = await usableNode(ctx, uid, nodeId);
  const { base, missing } = launchBase(ctx);
  if (!base) return { node_id: nodeId, node_name: name, missing, commands: null, token_created_at: null };
  const t = await ensureLaunchToken(ctx, uid);
  return {
    node_id: nodeId,
    node_name: name,
    missing: null,
    commands: launchCommands({ base, token: t.token as string, nodeId }),
    token_created_at: t.created_at,
  };
}
