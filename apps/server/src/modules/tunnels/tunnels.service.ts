import { randomInt } from "node:crypto";
import {
  type AdminTunnelListQuery,
  type AdminTunnelRow,
  type CreateTunnelBody,
  IllegalStatus,
  type Paged,
  type ProxyProtocol,
  type TunnelDetail,
  type TunnelListQuery,
  type TunnelProtocol,
  TunnelStatus,
  type TunnelView,
  type UpdateTunnelBody,
} from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext, DomainNames } from "../../context";
import { isUniqueViolation } from "../../db/errors";
import type { DB } from "../../db/schema";
import { invalid, localDuplicated, notFound, refused, remoteDuplicated } from "../../shared/errors";
import { lockUser } from "../../shared/locks";
import { nowIso } from "../../shared/time";
import { transact } from "../../shared/tx";
import { lockNode } from "../nodes/nodes.repository";
import type { NodeRow } from "../nodes/nodes.table";
import { getPlanLimits, type PlanLimits } from "../subscriptions/quota";
import { requirePhone } from "../users/users.service";
import { requireVerifiedForTunnels } from "../verify/verify.service";
import { takeOverExactNames } from "./exact-owner";
import { type CompiledRule, flagByRules, loadRules } from "./illegal-rules";
import { checkRangeEdit } from "./port-range";
import { checkSecretEdit, newSecretKey } from "./secret-tunnels";
import { movedHoldPending, movedHoldValues } from "./sessions";
import {
  checkDraft,
  checkPeerLimit,
  cleanAddon,
  draftValues,
  holdsPort,
  isWeb,
  type TunnelDraft,
} from "./tunnel-draft";
import {
  presentAdminTunnel,
  presentTunnel,
  presentTunnelDetail,
  tunnelAddon,
  tunnelCustomDomains,
} from "./tunnels.presenter";
import {
  countHeldTunnels,
  filteredTunnels,
  findOwnTunnel,
  findTunnel,
  heldPorts,
  levelOf,
  markDeleted,
  nameTaken,
  nodeWithLevel,
  pageTunnels,
  portTaken,
  takenDomain,
  tunnelDomains,
  tunnelRow,
  tunnelState,
  writeTunnelDomains,
} from "./tunnels.repository";
import type { TunnelRow } from "./tunnels.table";

/* Customers' tunnels: one write path for creating and editing, deletion, and the lists. */

export async function loadNode(db: Kysely<DB>, nodeId: number): Promise<{ node: NodeRow; level: number }> {
  const found = await nodeWithLevel(db, nodeId);
  if (!found) throw invalid("node_id", "节点不存在");
  return found;
}

export async function requireLimits(db: Kysely<DB>, uid: number): Promise<PlanLimits> {
  const limits = await getPlanLimits(db, uid);
  if (!limits) throw refused("没有生效中的套餐，请先购买套餐");
  return limits;
}

/**
 * A tunnel write's first steps in its transaction: the customer's lock, then the node's
 * (lockNode: deleteNode and updateNode wait for the write, or committed before it and are seen
 * here), and the draft checked again against the node, its level and the customer's plan as they
 * are now, and its custom domains (their deletion takes the customer's lock too) - what the write
 * commits against. `check: false` (turning a tunnel on or off) only takes the locks, with the
 * plan read before.
 */
async function underLocks(
  trx: Kysely<DB>,
  uid: number,
  nodeId: number,
  draft: TunnelDraft,
  {
    hosts,
    limits,
    check,
    domains,
  }: { hosts: DomainNames; limits: PlanLimits; check: boolean; domains: AppContext["domains"] },
): Promise<{ node: NodeRow; limits: PlanLimits }> {
  await lockUser(trx, uid);
  // A port range's overlap with other tunnels' ports has no unique index: its write takes the node
  // row for update, which waits for (and makes wait) every other tunnel write on the node (their
  // key share), so the overlap check below sees them committed (port-range.ts).
  const node = await lockNode(trx, nodeId, draft.remote_port_end ? "update" : "key share");
  if (!node) throw invalid("node_id", "节点不存在");
  if (!check) return { node, limits };
  const now = await requireLimits(trx, uid);
  checkDraft(draft, node, now, await levelOf(trx, node), hosts);
  if (isWeb(draft.protocol)) await domains.assertUsable(trx, uid, node.node_id, draft.custom_domains);
  return { node, limits: now };
}

/** A random free port in the node's range, avoiding ports blocked by rules. */
async function pickFreePort(trx: Kysely<DB>, node: NodeRow, rules: CompiledRule[]): Promise<number> {
  const used = await heldPorts(trx, node.node_id);
  const blocked = (p: number) =>
    rules.some((r) => r.kind === "port" && r.lo !== undefined && r.hi !== undefined && p >= r.lo && p <= r.hi);
  const span = node.port_max - node.port_min + 1;
  const start = randomInt(span);
  for (let i = 0; i < span; i++) {
    const p = node.port_min + ((start + i) % span);
    if (!used.has(p) && !blocked(p)) return p;
  }
  throw refused("该节点已没有可用的远程端口，请换一个节点");
}

/** 40008/40001 checks inside the write transaction (the unique indexes are the last word). */
async function assertFree(
  trx: Kysely<DB>,
  uid: number,
  node: NodeRow,
  draft: TunnelDraft,
  exceptTunId?: number,
): Promise<void> {
  if (await nameTaken(trx, uid, draft.tun_name, exceptTunId)) throw localDuplicated("隧道名称已存在", "tun_name");
  const taken = draft.remote_port
    ? await portTaken(trx, node.node_id, draft.remote_port, draft.remote_port_end ?? draft.remote_port, exceptTunId)
    : null;
  if (taken) throw remoteDuplicated(`端口 ${taken} 已被占用`, "remote_port");
  const hit = await takenDomain(trx, node.node_id, tunnelDomains(draft, node.subdomain_host), exceptTunId);
  if (hit) {
    const field = draft.custom_domains.includes(hit) ? "custom_domains" : "subdomain";
    throw remoteDuplicated(`域名 ${hit} 已被占用`, field);
  }
}

/** Runs a tunnel write; a unique index firing on a race becomes the matching 40001/40008. */
async function writeWithChecks<T>(
  draft: TunnelDraft,
  recheck: () => Promise<void>,
  write: () => Promise<T>,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      await recheck();
      // A random port taken by someone else between pick and insert: pick again.
      if (draft.remote_port === 0 && attempt < 3) continue;
      throw remoteDuplicated("端口或域名已被占用，请重试", "remote_port");
    }
  }
}

/** Flags a freshly written tunnel for every operator rule it breaks. */
async function checkRules(ctx: AppContext, row: TunnelRow, subdomainHost: string | null): Promise<void> {
  const rules = await loadRules(ctx.db);
  if (!rules.length) return;
  await flagByRules(ctx.db, rules, {
    tun_id: row.tun_id,
    uid: row.uid,
    node_id: row.node_id,
    tun_name: row.tun_name,
    domains: tunnelDomains({ custom_domains: tunnelCustomDomains(row), subdomain: row.subdomain }, subdomainHost),
    remote_port: row.remote_port,
    remote_port_end: row.remote_port_end,
  });
}

/** Whose tunnel a write is, on which node, under which plan (as read before its transaction). */
interface WriteTarget {
  uid: number;
  node: NodeRow;
  level: number;
  limits: PlanLimits;
  /** the tunnel edited; none for a new one */
  tunId?: number;
  /**
   * false when an edit only turns the tunnel on or off: a plan that shrank since creation must not
   * lock the customer out of turning a tunnel off, so neither plan nor node is checked again
   */
  check: boolean;
  /** the edit moves the tunnel to `node` (tunnel-batch.ts moveTunnel): the old node's hold goes */
  moving?: boolean;
}

/** Unchecked writes (an operator's) look at no names. */
const NO_NAMES: DomainNames = { hosts: [], refusal: () => null };

/**
 * The one write of a customer's tunnel, new or edited: the draft checked against the node, the
 * plan and the provider's names, then written under the customer's and the node's locks with
 * its port and domains free (a new tunnel within tunnel_limit, a random port picked for 0), and
 * judged by the operators' rules. An edit writes only the live tunnel it read and has rules an
 * operator cleared judged again.
 */
export async function writeTunnel(ctx: AppContext, t: WriteTarget, draft: TunnelDraft): Promise<TunnelView> {
  const { uid, node } = t;
  const hosts = t.check ? await ctx.domains.names(ctx.db) : NO_NAMES;
  if (t.check) {
    checkDraft(draft, node, t.limits, t.level, hosts);
    // Only the customer's verified domains, pointed at this node (the domains module decides).
    if (isWeb(draft.protocol)) await ctx.domains.assertUsable(ctx.db, uid, node.node_id, draft.custom_domains);
  }
  const rules = draft.remote_port === 0 ? await loadRules(ctx.db) : [];
  const { tunId, host } = await writeWithChecks(
    draft,
    () => ctx.db.transaction().execute((trx) => assertFree(trx, uid, node, draft, t.tunId)),
    () =>
      transact(ctx, async (trx) => {
        const { node: locked, limits } = await underLocks(trx, uid, node.node_id, draft, {
          hosts,
          limits: t.limits,
          check: t.check,
          domains: ctx.domains,
        });
        // Under the customer's lock: a move racing another move sees the hold the first one wrote.
        if (t.moving && t.tunId !== undefined && (await movedHoldPending(trx, t.tunId))) throw refused(MOVE_WHILE_HELD);
        if (
          t.tunId === undefined &&
          limits.tunnel_limit > 0 &&
          (await countHeldTunnels(trx, uid)) >= limits.tunnel_limit
        )
          throw refused(`已达到套餐隧道数量上限 ${limits.tunnel_limit} 条（tunnel_limit）`);
        // The exact owner wins: names it verified that another customer's tunnel here holds through a wildcard.
        if (isWeb(draft.protocol)) {
          // held exactly: its own verified name (the domains module answers; a wildcard is no exact hold)
          const held = await ctx.domains.usable(trx, uid);
          const now = Date.now();
          const exact = draft.custom_domains.filter((d) => !d.startsWith("*.") && (held.get(d)?.untilMs ?? 0) > now);
          await takeOverExactNames(trx, uid, locked.node_id, exact);
        }
        await assertFree(trx, uid, locked, draft, t.tunId);
        if (draft.enabled)
          for (const guard of ctx.tunnelStartGuards) {
            const why = await guard(trx, uid);
            if (why) throw refused(why);
          }
        const values = draftValues(draft);
        if (draft.remote_port === 0) values.remote_port = await pickFreePort(trx, locked, rules);
        const now = nowIso();
        let tunId = t.tunId;
        if (tunId === undefined) {
          const r = await trx
            .insertInto("tunnels")
            .values({
              ...values,
              uid,
              secret_key: newSecretKey(draft.protocol),
              node_id: node.node_id,
              status: TunnelStatus.Offline,
              banned_reason: null,
              run_id: null,
              last_online_at: null,
              created_at: now,
              updated_at: now,
            })
            .returning("tun_id")
            .executeTakeFirstOrThrow();
          tunId = r.tun_id;
        } else {
          // Only the live tunnel it read: a tunnel deleted meanwhile must not get its domains back.
          const r = await trx
            .updateTable("tunnels")
            .set({
              ...values,
              updated_at: now,
              // A move: the old node's session no longer holds it; it is recorded as the moved
              // hold, refused there by every process and agent (sessions.ts movedHoldValues).
              ...(t.moving
                ? {
                    node_id: node.node_id,
                    status: TunnelStatus.Offline,
                    run_id: null,
                    stale_closes: 0,
                    ...movedHoldValues(node.node_id),
                  }
                : {}),
            })
            .where("tun_id", "=", tunId)
            .where("status", "not in", [TunnelStatus.Deleted, TunnelStatus.Locked])
            .executeTakeFirst();
          if (Number(r.numUpdatedRows) === 0) await changedMeanwhile(trx, tunId, lockedEdit);
          // An edited tunnel is judged again by rules an operator cleared before.
          if (t.check)
            await trx
              .deleteFrom("tunnel_flags")
              .where("tun_id", "=", tunId)
              .where("source", "=", "rule")
              .where("status", "=", IllegalStatus.Cleared)
              .execute();
        }
        await writeTunnelDomains(trx, tunId, node.node_id, tunnelDomains(draft, locked.subdomain_host));
        trx.changes.emit("tunnel.changed", { tun_id: tunId, uid });
        return { tunId, host: locked.subdomain_host };
      }),
  );
  if (t.check) await checkRules(ctx, await tunnelRow(ctx.db, tunId), host);
  return presentTunnel((await findOwnTunnel(ctx.db, uid, tunId))!);
}

/**
 * Creates a tunnel within the plan's limits: tunnel_limit, tunnel_peer_port_limit, bandwidth and
 * the node's level (2001 naming the limit); a taken port or domain is 40001, a used name 40008.
 */
export async function createTunnel(ctx: AppContext, uid: number, body: CreateTunnelBody): Promise<TunnelView> {
  await requirePhone(ctx, uid);
  await requireVerifiedForTunnels(ctx, uid);
  const { node, level } = await loadNode(ctx.db, body.node_id);
  const limits = await requireLimits(ctx.db, uid);
  return writeTunnel(
    ctx,
    { uid, node, level, limits, check: true },
    {
      tun_name: body.tun_name,
      protocol: body.protocol,
      local_ip: body.local_ip,
      local_port: body.local_port,
      remote_port: holdsPort(body.protocol) ? (body.remote_port ?? 0) : null,
      remote_port_end: body.remote_port_end ?? null,
      custom_domains: body.custom_domains ?? [],
      subdomain: body.subdomain ?? null,
      use_encryption: body.use_encryption,
      use_compression: body.use_compression,
      bandwidth: body.bandwidth ?? 0,
      addon: cleanAddon(body.addon),
      enabled: true,
      proxy_protocol: body.proxy_protocol,
    },
  );
}

/**
 * Edits a customer's tunnel (not its node or protocol). `enabled: false` turns it off: frps
 * refuses it and, if it is connected, the client's next heartbeat is refused so it drops it.
 */
export async function updateTunnel(ctx: AppContext, uid: number, body: UpdateTunnelBody): Promise<TunnelView> {
  const cur = await findOwnTunnel(ctx.db, uid, body.tun_id);
  if (!cur) throw notFound("隧道");
  if (cur.status === TunnelStatus.Locked) throw refused(lockedEdit(cur.banned_reason));
  const { node, level } = await loadNode(ctx.db, cur.node_id);
  const limits = await requireLimits(ctx.db, uid);
  const protocol = cur.protocol as TunnelProtocol;
  checkSecretEdit(protocol, body);
  checkRangeEdit(protocol, body);
  if (!isWeb(protocol) && (body.custom_domains?.length || body.subdomain))
    throw invalid(body.subdomain ? "subdomain" : "custom_domains", "tcp/udp 隧道不使用域名");
  if (isWeb(protocol) && body.remote_port) throw invalid("remote_port", "http(s) 隧道不使用远程端口");
  const onlyToggle = Object.keys(body).every((k) => k === "tun_id" || k === "enabled");
  const draft = editedDraft(cur, body);
  if (onlyToggle && body.enabled && cur.enabled !== 1) checkPeerLimit(draft, limits);
  return writeTunnel(ctx, { uid, node, level, limits, tunId: cur.tun_id, check: !onlyToggle }, draft);
}

/** The tunnel as an edit leaves it: the body's fields over the stored ones (node and protocol stay). */
export function editedDraft(cur: TunnelRow, body: Omit<UpdateTunnelBody, "tun_id">): TunnelDraft {
  const protocol = cur.protocol as TunnelProtocol;
  return {
    tun_name: body.tun_name ?? cur.tun_name,
    protocol,
    local_ip: body.local_ip ?? cur.local_ip,
    local_port: body.local_port ?? cur.local_port,
    remote_port: !holdsPort(protocol) ? null : body.remote_port !== undefined ? body.remote_port : cur.remote_port,
    remote_port_end: body.remote_port_end !== undefined ? body.remote_port_end : cur.remote_port_end,
    custom_domains: body.custom_domains ?? tunnelCustomDomains(cur),
    subdomain: body.subdomain !== undefined ? body.subdomain : cur.subdomain,
    use_encryption: body.use_encryption ?? cur.use_encryption === 1,
    use_compression: body.use_compression ?? cur.use_compression === 1,
    bandwidth: body.bandwidth ?? cur.bandwidth,
    addon: body.addon !== undefined ? cleanAddon(body.addon) : tunnelAddon(cur),
    enabled: body.enabled ?? cur.enabled === 1,
    proxy_protocol: body.proxy_protocol ?? (cur.proxy_protocol as ProxyProtocol),
  };
}

/**
 * A customer's write found the tunnel deleted or locked since it was read (a concurrent delete,
 * an operator's lock): it is refused as it would have been had it come later.
 */
async function changedMeanwhile(
  trx: Kysely<DB>,
  tunId: number,
  lockedMsg: (reason: string | null) => string,
): Promise<never> {
  const t = await tunnelState(trx, tunId);
  throw t?.status === TunnelStatus.Locked ? refused(lockedMsg(t.banned_reason)) : notFound("隧道");
}

const MOVE_WHILE_HELD = "隧道上次迁移时原节点上的 frpc 连接尚未断开（通常一分钟内断开），请稍后再迁移";
export const lockedEdit = (reason: string | null) => `隧道已被锁定：${reason ?? ""}`.trim();
const lockedDelete = () => "隧道已被锁定，不能删除，如有疑问请联系客服";

/** Deletes a customer's tunnel; a locked one stays for the operators to judge. */
export async function deleteTunnel(ctx: AppContext, uid: number, tunId: number): Promise<void> {
  const cur = await findOwnTunnel(ctx.db, uid, tunId);
  if (!cur) throw notFound("隧道");
  if (cur.status === TunnelStatus.Locked) throw refused(lockedDelete());
  await transact(ctx, async (trx) => {
    if (!(await markDeleted(trx, tunId, { unlessLocked: true }))) await changedMeanwhile(trx, tunId, lockedDelete);
  });
}

/** The customer's own tunnels, newest first, filtered by node, protocol, status and name. */
export function listUserTunnels(ctx: AppContext, uid: number, q: TunnelListQuery): Promise<Paged<TunnelView>> {
  const own = filteredTunnels(ctx.db, { ...q, uid, phone: undefined });
  return pageTunnels(ctx.db, own, q.page, q.size, presentTunnel);
}

/** One of the customer's tunnels; anyone else's is 404. */
export async function getUserTunnel(ctx: AppContext, uid: number, tunId: number): Promise<TunnelDetail> {
  const row = await findOwnTunnel(ctx.db, uid, tunId);
  if (!row) throw notFound("隧道");
  return presentTunnelDetail(row);
}

/** Every customer's tunnels for operators; status −1 lists deleted ones. */
export function listAdminTunnels(ctx: AppContext, q: AdminTunnelListQuery): Promise<Paged<AdminTunnelRow>> {
  return pageTunnels(ctx.db, filteredTunnels(ctx.db, q), q.page, q.size, presentAdminTunnel, true);
}

/** One tunnel for operators, deleted ones included. */
export async function getAdminTunnel(ctx: AppContext, tunId: number): Promise<AdminTunnelRow> {
  const row = await findTunnel(ctx.db, tunId);
  if (!row) throw notFound("隧道");
  return presentAdminTunnel(row);
}
