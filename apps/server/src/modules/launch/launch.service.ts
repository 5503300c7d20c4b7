import { createHash } from "node:crypto";
import type { LaunchCommands, LaunchTokenView } from "@burrow/contract";
import type { AppContext } from "../../context";
import { notFound } from "../../shared/errors";
import { randomToken } from "../../shared/ids";
import { nowIso } from "../../shared/time";
import { findNode } from "../nodes/nodes.repository";
import { launchCommands } from "./scripts";

/** Launch tokens' shape: `bl` and 32 base64url characters (192 random bits), safe in a URL path. */
export const LAUNCH_TOKEN = /^bl[A-Za-z0-9_-]{32}$/;

export const launchTokenHash = (token: string): string => createHash("sha256").update(token).digest("hex");

const present = (r: { token: string; created_at: string } | undefined): LaunchTokenView => ({
  token: r?.token ?? null,
  created_at: r?.created_at ?? null,
});

const freshToken = () => {
  const token = `bl${randomToken(24)}`;
  return { token, token_hash: launchTokenHash(token), created_at: nowIso() };
};

const currentRow = (ctx: AppContext, uid: number) =>
  ctx.db.selectFrom("launch_tokens").select(["token", "created_at"]).where("uid", "=", uid).executeTakeFirst();

/** The customer's launch token, or nulls when none is issued. */
export async function launchToken(ctx: AppContext, uid: number): Promise<LaunchTokenView> {
  return present(await currentRow(ctx, uid));
}

/** The customer's token, issued on first use; two first uses at once keep the one that landed first. */
export async function ensureLaunchToken(ctx: AppContext, uid: number): Promise<LaunchTokenView> {
  const cur = await currentRow(ctx, uid);
  if (cur) return present(cur);
  await ctx.db
    .insertInto("launch_tokens")
    .values({ uid, ...freshToken() })
    .onConflict((oc) => oc.column("uid").doNothing())
    .execute();
  return present(await currentRow(ctx, uid));
}

/** A new token replacing the old one (one statement: concurrent rotations leave exactly one). */
export async function rotateLaunchToken(ctx: AppContext, uid: number): Promise<LaunchTokenView> {
  const row = freshToken();
  await ctx.db
    .insertInto("launch_tokens")
    .values({ uid, ...row })
    .onConflict((oc) => oc.column("uid").doUpdateSet(row))
    .execute();
  return present(await currentRow(ctx, uid));
}

/** Drops the token: every install stops at its next start; the next 一键启动 card issues a new one. */
export async function revokeLaunchToken(ctx: AppContext, uid: number): Promise<LaunchTokenView> {
  await ctx.db.deleteFrom("launch_tokens").where("uid", "=", uid).execute();
  return present(undefined);
}

/**
 * Whose token this is: looked up by its SHA-256 (an index probe on a hash, so the lookup's timing
 * says nothing about how much of a guess matched), or null.
 */
export async function launchTokenOwner(ctx: AppContext, token: string): Promise<number | null> {
  if (!LAUNCH_TOKEN.test(token)) return null;
  const row = await ctx.db
    .selectFrom("launch_tokens")
    .select("uid")
    .where("token_hash", "=", launchTokenHash(token))
    .executeTakeFirst();
  return row?.uid ?? null;
}

/** Why there are no installers: the console's own address is unknown (never taken from a request). */
export const NO_PUBLIC_URL =
  "请先由运营方设置 PUBLIC_URL（控制台的公网地址）：安装命令从它下载配置，不会采用浏览器请求中的地址";

/** The one-line installers of a node for the customer, issuing the token on first use. */
export async function commandsFor(ctx: AppContext, uid: number, nodeId: number): Promise<LaunchCommands> {
  const node = await findNode(ctx.db, nodeId);
  if (!node) throw notFound("节点");
  const name = node.name;
  const base = ctx.config.PUBLIC_URL;
  if (!base)
    return { node_id: nodeId, node_name: name, missing: NO_PUBLIC_URL, commands: null, token_created_at: null };
  const t = await ensureLaunchToken(ctx, uid);
  return {
    node_id: nodeId,
    node_name: name,
    missing: null,
    commands: launchCommands({ base, token: t.token as string, nodeId }),
    token_created_at: t.created_at,
  };
}
