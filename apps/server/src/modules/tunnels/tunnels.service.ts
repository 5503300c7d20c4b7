import { randomInt } from "node:crypto";
import {
  type AdminTunnelListQuery,
  type AdminTunnelRow,
  type AdminUpdateTunnelBody,
  type CreateTunnelBody,
  IllegalStatus,
  MASKED_PASSWORD,
  NodeStatus,
  type Paged,
  type TunnelAddon,
  type TunnelDetail,
  type TunnelListQuery,
  type TunnelProtocol,
  TunnelStatus,
  type TunnelView,
  type UpdateTunnelBody,
} from "@burrow/contract";
import type { ExpressionBuilder, Kysely } from "kysely";
import type { AppContext } from "../../context";
import { containsText, trigramContains } from "../../db/dialect";
import { isUniqueViolation } from "../../db/errors";
import type { DB } from "../../db/schema";
import type { Operator } from "../../shared/actor";
import { invalid, localDuplicated, notFound, refused, remoteDuplicated } from "../../shared/errors";
import { lockUser } from "../../shared/locks";
import { countRows, pageIds, pageOf } from "../../shared/paging";
import { nowIso } from "../../shared/time";
import { type Tx, transact } from "../../shared/tx";
import { audit } from "../audit/audit";
import { lockNode } from "../nodes/nodes.repository";
import type { NodeRow } from "../nodes/nodes.table";
import { getPlanLimits, type PlanLimits } from "../subscriptions/quota";
import { uidsWithPhoneContaining } from "../users/users.repository";
import { requirePhone } from "../users/users.service";
import { requireVerifiedForTunnels } from "../verify/verify.service";
import { homographReason, providerHosts, underProviderHost } from "./domains";
import { type CompiledRule, flagByRules, loadRules } from "./illegal-rules";
import {
  presentAdminTunnel,
  presentTunnel,
  presentTunnelDetail,
  tunnelAddon,
  tunnelCustomDomains,
} from "./tunnels.presenter";
import {
  findOwnTunnel,
  findTunnel,
  selectTunnels,
  type TunnelJoinedRow,
  tunnelDomains,
  writeTunnelDomains,
} from "./tunnels.repository";
import type { TunnelRow } from "./tunnels.table";

/** The shape a tunnel has after a create or edit, before it is written. */
interface TunnelDraft {
  tun_name: string;
  protocol: TunnelProtocol;
  local_ip: string;
  local_port: number;
  /** 0 = pick a free port */
  remote_port: number | null;
  custom_domains: string[];
  subdomain: string | null;
  use_encryption: boolean;
  use_compression: boolean;
  bandwidth: number;
  addon: TunnelAddon;
  enabled: boolean;
}

const isWeb = (p: string) => p === "http" || p === "https";

/** Drops empty addon fields so that stored addons stay minimal. */
function cleanAddon(a: TunnelAddon | undefined): TunnelAddon {
  const out: TunnelAddon = {};
  if (!a) return out;
  if (a.host_header_rewrite) out.host_header_rewrite = a.host_header_rewrite;
  if (a.http_user) out.http_user = a.http_user;
  if (a.http_password) out.http_password = a.http_password;
  if (a.locations?.length) out.locations = [...new Set(a.locations)];
  return out;
}

/** An operator's addon with the masked password (see presentAdminTunnel) put back to the stored one. */
function unmaskAddon(a: TunnelAddon, cur: Pick<TunnelRow, "addon">): TunnelAddon {
  return a.http_password === MASKED_PASSWORD ? { ...a, http_password: tunnelAddon(cur).http_password } : a;
}

/**
 * Rules that depend on the node and the plan (the schema already checked each field alone and
 * put every custom domain in its canonical form). `provider` are the provider's own host names.
 */
function checkDraft(
  draft: TunnelDraft,
  node: NodeRow,
  limits: PlanLimits,
  levelOfNode: number,
  provider: readonly string[],
): void {
  if (node.status === NodeStatus.OffShelf) throw invalid("node_id", "节点已下架");
  if (levelOfNode > limits.level)
    throw refused(`套餐等级不足：该节点需要等级 ${levelOfNode}，当前套餐等级 ${limits.level}（level）`);
  if (draft.protocol === "http" && !node.vhost_http_port) throw invalid("protocol", "该节点不支持 http 隧道");
  if (draft.protocol === "https" && !node.vhost_https_port) throw invalid("protocol", "该节点不支持 https 隧道");
  if (isWeb(draft.protocol)) {
    if (draft.subdomain && !node.subdomain_host) throw invalid("subdomain", "该节点不支持子域名，请使用自定义域名");
    // A subdomain that spells one of the provider's own names (the console, another node's host).
    const full = draft.subdomain ? `${draft.subdomain}.${node.subdomain_host}` : null;
    if (full && provider.includes(full)) throw invalid("subdomain", `${full} 是服务商保留的域名，请换一个子域名`);
    const under = node.subdomain_host
      ? draft.custom_domains.find((d) => d === node.subdomain_host || d.endsWith(`.${node.subdomain_host}`))
      : undefined;
    // frps refuses a custom domain under its own subDomainHost (frp-protocol.md §3.5).
    if (under) throw invalid("custom_domains", `${under} 属于节点子域名，请改用子域名字段`);
    // Nor may a customer claim the provider's other names (other nodes, the console).
    for (const d of draft.custom_domains) {
      const host = underProviderHost(d, provider);
      if (host) throw invalid("custom_domains", `${d} 属于服务商的域名 ${host}，不能作为自定义域名`);
      const homograph = homographReason(d);
      if (homograph) throw invalid("custom_domains", `${d} 不能使用：${homograph}`);
    }
    if (!draft.custom_domains.length && !draft.subdomain) throw invalid("custom_domains", "请填写自定义域名或子域名");
    if (new Set(draft.custom_domains).size !== draft.custom_domains.length)
      throw invalid("custom_domains", "自定义域名重复");
  } else if (draft.remote_port && (draft.remote_port < node.port_min || draft.remote_port > node.port_max)) {
    throw invalid("remote_port", `远程端口须在 ${node.port_min}-${node.port_max} 之间`);
  }
  if (Object.keys(draft.addon).length && draft.protocol !== "http")
    throw invalid("addon", "附加选项仅适用于 http 隧道");
  const entries = isWeb(draft.protocol) ? draft.custom_domains.length + (draft.subdomain ? 1 : 0) : 1;
  if (limits.tunnel_peer_port_limit > 0 && entries > limits.tunnel_peer_port_limit)
    throw refused(`超出套餐限制：每条隧道最多 ${limits.tunnel_peer_port_limit} 个端口或域名（tunnel_peer_port_limit）`);
  if (draft.bandwidth > 0 && limits.bandwidth > 0 && draft.bandwidth > limits.bandwidth)
    throw refused(`超出套餐带宽：最多 ${limits.bandwidth} Mbps（bandwidth）`);
  if (draft.bandwidth > 0 && node.bandwidth > 0 && draft.bandwidth > node.bandwidth)
    throw refused(`超出节点带宽：最多 ${node.bandwidth} Mbps（bandwidth）`);
}

async function loadNode(db: Kysely<DB>, nodeId: number): Promise<{ node: NodeRow; level: number }> {
  const node = await db
    .selectFrom("nodes")
    .leftJoin("plan_levels", "plan_levels.id", "nodes.level_id")
    .selectAll("nodes")
    .select("plan_levels.level")
    .where("nodes.node_id", "=", nodeId)
    .executeTakeFirst();
  if (!node) throw invalid("node_id", "节点不存在");
  const { level, ...row } = node;
  return { node: row, level: level ?? 0 };
}

async function requireLimits(db: Kysely<DB>, uid: number): Promise<PlanLimits> {
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
  }: { hosts: readonly string[]; limits: PlanLimits; check: boolean; domains: AppContext["domains"] },
): Promise<{ node: NodeRow; limits: PlanLimits }> {
  await lockUser(trx, uid);
  const node = await lockNode(trx, nodeId, "key share");
  if (!node) throw invalid("node_id", "节点不存在");
  if (!check) return { node, limits };
  const now = await requireLimits(trx, uid);
  const level = await trx.selectFrom("plan_levels").select("level").where("id", "=", node.level_id).executeTakeFirst();
  checkDraft(draft, node, now, level?.level ?? 0, hosts);
  if (isWeb(draft.protocol)) await domains.assertUsable(trx, uid, node.node_id, draft.custom_domains);
  return { node, limits: now };
}

/** A random free port in the node's range, avoiding ports blocked by rules. */
async function pickFreePort(trx: Kysely<DB>, node: NodeRow, rules: CompiledRule[]): Promise<number> {
  const used = new Set(
    (
      await trx
        .selectFrom("tunnels")
        .select("remote_port")
        .where("node_id", "=", node.node_id)
        .where(liveOrHeld)
        .where("remote_port", "is not", null)
        .execute()
    ).map((r) => r.remote_port),
  );
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

/** 40008 when the customer already has a live tunnel of that name (other than `exceptTunId`). */
async function assertNameFree(
  db: Kysely<DB>,
  uid: number,
  tunName: string,
  exceptTunId: number | undefined,
  message: string,
): Promise<void> {
  let name = db
    .selectFrom("tunnels")
    .select("tun_id")
    .where("uid", "=", uid)
    .where("tun_name", "=", tunName)
    .where("status", "<>", TunnelStatus.Deleted);
  if (exceptTunId) name = name.where("tun_id", "<>", exceptTunId);
  if (await name.executeTakeFirst()) throw localDuplicated(message, "tun_name");
}

/** 40008/40001 checks inside the write transaction (the unique indexes are the last word). */
async function assertFree(
  trx: Kysely<DB>,
  uid: number,
  node: NodeRow,
  draft: TunnelDraft,
  exceptTunId?: number,
): Promise<void> {
  await assertNameFree(trx, uid, draft.tun_name, exceptTunId, "隧道名称已存在");
  if (draft.remote_port) {
    let port = trx
      .selectFrom("tunnels")
      .select("tun_id")
      .where("node_id", "=", node.node_id)
      .where("remote_port", "=", draft.remote_port)
      .where(liveOrHeld);
    if (exceptTunId) port = port.where("tun_id", "<>", exceptTunId);
    if (await port.executeTakeFirst()) throw remoteDuplicated(`端口 ${draft.remote_port} 已被占用`, "remote_port");
  }
  const domains = tunnelDomains(draft, node.subdomain_host);
  if (domains.length) {
    let taken = trx
      .selectFrom("tunnel_domains")
      .select("domain")
      .where("node_id", "=", node.node_id)
      .where("domain", "in", domains);
    if (exceptTunId) taken = taken.where("tun_id", "<>", exceptTunId);
    const hit = await taken.executeTakeFirst();
    if (hit) {
      const field = draft.custom_domains.includes(hit.domain) ? "custom_domains" : "subdomain";
      throw remoteDuplicated(`域名 ${hit.domain} 已被占用`, field);
    }
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

function draftValues(draft: TunnelDraft) {
  return {
    tun_name: draft.tun_name,
    protocol: draft.protocol,
    local_ip: draft.local_ip,
    local_port: draft.local_port,
    remote_port: isWeb(draft.protocol) ? null : draft.remote_port,
    custom_domains: JSON.stringify(isWeb(draft.protocol) ? draft.custom_domains : []),
    subdomain: isWeb(draft.protocol) ? draft.subdomain : null,
    use_encryption: draft.use_encryption ? 1 : 0,
    use_compression: draft.use_compression ? 1 : 0,
    bandwidth: draft.bandwidth,
    addon: JSON.stringify(draft.addon),
    enabled: draft.enabled ? 1 : 0,
  };
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
  });
}

/**
 * Creates a tunnel within the plan's limits: tunnel_limit, tunnel_peer_port_limit, bandwidth and
 * the node's level (2001 naming the limit); a taken port or domain is 40001, a used name 40008.
 */
export async function createTunnel(ctx: AppContext, uid: number, body: CreateTunnelBody): Promise<TunnelView> {
  await requirePhone(ctx, uid);
  await requireVerifiedForTunnels(ctx, uid);
  const { node, level } = await loadNode(ctx.db, body.node_id);
  const planned = await requireLimits(ctx.db, uid);
  const draft: TunnelDraft = {
    tun_name: body.tun_name,
    protocol: body.protocol,
    local_ip: body.local_ip,
    local_port: body.local_port,
    remote_port: isWeb(body.protocol) ? null : (body.remote_port ?? 0),
    custom_domains: body.custom_domains ?? [],
    subdomain: body.subdomain ?? null,
    use_encryption: body.use_encryption,
    use_compression: body.use_compression,
    bandwidth: body.bandwidth ?? 0,
    addon: cleanAddon(body.addon),
    enabled: true,
  };
  const hosts = await providerHosts(ctx.db, ctx.config.PUBLIC_URL);
  checkDraft(draft, node, planned, level, hosts);
  // Only the customer's verified domains, pointed at this node (the domains module decides).
  if (isWeb(draft.protocol)) await ctx.domains.assertUsable(ctx.db, uid, node.node_id, draft.custom_domains);
  const rules = draft.remote_port === 0 ? await loadRules(ctx.db) : [];
  const { tunId, host } = await writeWithChecks(
    draft,
    () => ctx.db.transaction().execute((trx) => assertFree(trx, uid, node, draft)),
    () =>
      transact(ctx, async (trx) => {
        const { node: locked, limits } = await underLocks(trx, uid, node.node_id, draft, {
          hosts,
          limits: planned,
          check: true,
          domains: ctx.domains,
        });
        const count = await trx
          .selectFrom("tunnels")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("uid", "=", uid)
          .where(liveOrHeld)
          .executeTakeFirstOrThrow();
        if (limits.tunnel_limit > 0 && Number(count.n) >= limits.tunnel_limit)
          throw refused(`已达到套餐隧道数量上限 ${limits.tunnel_limit} 条（tunnel_limit）`);
        await assertFree(trx, uid, locked, draft);
        const values = draftValues(draft);
        if (draft.remote_port === 0) values.remote_port = await pickFreePort(trx, locked, rules);
        const now = nowIso();
        const r = await trx
          .insertInto("tunnels")
          .values({
            ...values,
            uid,
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
        await writeTunnelDomains(trx, r.tun_id, node.node_id, tunnelDomains(draft, locked.subdomain_host));
        trx.changes.emit("tunnel.changed", { tun_id: r.tun_id, uid });
        return { tunId: r.tun_id, host: locked.subdomain_host };
      }),
  );
  const row = await ctx.db.selectFrom("tunnels").selectAll().where("tun_id", "=", tunId).executeTakeFirstOrThrow();
  await checkRules(ctx, row, host);
  return presentTunnel((await findOwnTunnel(ctx.db, uid, tunId))!);
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
  if (!isWeb(protocol) && (body.custom_domains?.length || body.subdomain))
    throw invalid(body.subdomain ? "subdomain" : "custom_domains", "tcp/udp 隧道不使用域名");
  if (isWeb(protocol) && body.remote_port) throw invalid("remote_port", "http(s) 隧道不使用远程端口");
  const draft: TunnelDraft = {
    tun_name: body.tun_name ?? cur.tun_name,
    protocol,
    local_ip: body.local_ip ?? cur.local_ip,
    local_port: body.local_port ?? cur.local_port,
    remote_port: isWeb(protocol) ? null : body.remote_port !== undefined ? body.remote_port : cur.remote_port,
    custom_domains: body.custom_domains ?? tunnelCustomDomains(cur),
    subdomain: body.subdomain !== undefined ? body.subdomain : cur.subdomain,
    use_encryption: body.use_encryption ?? cur.use_encryption === 1,
    use_compression: body.use_compression ?? cur.use_compression === 1,
    bandwidth: body.bandwidth ?? cur.bandwidth,
    addon: body.addon !== undefined ? cleanAddon(body.addon) : tunnelAddon(cur),
    enabled: body.enabled ?? cur.enabled === 1,
  };
  // A plan that shrank since creation must not lock the customer out of turning a tunnel off.
  const onlyToggle = Object.keys(body).every((k) => k === "tun_id" || k === "enabled");
  const hosts = onlyToggle ? [] : await providerHosts(ctx.db, ctx.config.PUBLIC_URL);
  if (!onlyToggle) {
    checkDraft(draft, node, limits, level, hosts);
    if (isWeb(protocol)) await ctx.domains.assertUsable(ctx.db, uid, node.node_id, draft.custom_domains);
  }
  const rules = draft.remote_port === 0 ? await loadRules(ctx.db) : [];
  const host = await writeWithChecks(
    draft,
    () => ctx.db.transaction().execute((trx) => assertFree(trx, uid, node, draft, cur.tun_id)),
    () =>
      transact(ctx, async (trx) => {
        const { node: locked } = await underLocks(trx, uid, node.node_id, draft, {
          hosts,
          limits,
          check: !onlyToggle,
          domains: ctx.domains,
        });
        await assertFree(trx, uid, locked, draft, cur.tun_id);
        const values = draftValues(draft);
        if (draft.remote_port === 0) values.remote_port = await pickFreePort(trx, locked, rules);
        // Only the live tunnel it read: a tunnel deleted meanwhile must not get its domains back.
        const r = await trx
          .updateTable("tunnels")
          .set({ ...values, updated_at: nowIso() })
          .where("tun_id", "=", cur.tun_id)
          .where("status", "not in", [TunnelStatus.Deleted, TunnelStatus.Locked])
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) === 0) await changedMeanwhile(trx, cur.tun_id, lockedEdit);
        trx.changes.emit("tunnel.changed", { tun_id: cur.tun_id, uid });
        await writeTunnelDomains(trx, cur.tun_id, node.node_id, tunnelDomains(draft, locked.subdomain_host));
        // An edited tunnel is judged again by rules an operator cleared before.
        if (!onlyToggle)
          await trx
            .deleteFrom("tunnel_flags")
            .where("tun_id", "=", cur.tun_id)
            .where("source", "=", "rule")
            .where("status", "=", IllegalStatus.Cleared)
            .execute();
        return locked.subdomain_host;
      }),
  );
  const row = await ctx.db.selectFrom("tunnels").selectAll().where("tun_id", "=", cur.tun_id).executeTakeFirstOrThrow();
  if (!onlyToggle) await checkRules(ctx, row, host);
  return presentTunnel((await findOwnTunnel(ctx.db, uid, cur.tun_id))!);
}

/**
 * Marks a tunnel deleted (−1): its name is free again and its traffic history stays. While frps
 * still holds its proxy (a run id is recorded) it counts toward tunnel_limit and keeps its port
 * and domains; the frp module releases them when frps reports the proxy gone.
 */
async function markDeleted(trx: Tx, tunId: number, { unlessLocked = false } = {}): Promise<boolean> {
  const t = await trx
    .updateTable("tunnels")
    .set({ status: TunnelStatus.Deleted, updated_at: nowIso() })
    .where("tun_id", "=", tunId)
    .where("status", "not in", unlessLocked ? [TunnelStatus.Deleted, TunnelStatus.Locked] : [TunnelStatus.Deleted])
    .returning(["run_id", "uid"])
    .executeTakeFirst();
  if (!t) return false;
  trx.changes.emit("tunnel.changed", { tun_id: tunId, uid: t.uid });
  if (!t.run_id) await writeTunnelDomains(trx, tunId, 0, []);
  return true;
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
  const t = await trx
    .selectFrom("tunnels")
    .select(["status", "banned_reason"])
    .where("tun_id", "=", tunId)
    .executeTakeFirst();
  throw t?.status === TunnelStatus.Locked ? refused(lockedMsg(t.banned_reason)) : notFound("隧道");
}

const lockedEdit = (reason: string | null) => `隧道已被锁定：${reason ?? ""}`.trim();
const lockedDelete = () => "隧道已被锁定，不能删除，如有疑问请联系客服";

/** Tunnels that hold their slot, port and domains: not deleted, or deleted while frps still holds the proxy. */
const liveOrHeld = (eb: ExpressionBuilder<DB, "tunnels">) =>
  eb.or([eb("status", "<>", TunnelStatus.Deleted), eb("run_id", "is not", null)]);

/** Deletes a customer's tunnel; a locked one stays for the operators to judge. */
export async function deleteTunnel(ctx: AppContext, uid: number, tunId: number): Promise<void> {
  const cur = await findOwnTunnel(ctx.db, uid, tunId);
  if (!cur) throw notFound("隧道");
  if (cur.status === TunnelStatus.Locked) throw refused(lockedDelete());
  await transact(ctx, async (trx) => {
    if (!(await markDeleted(trx, tunId, { unlessLocked: true }))) await changedMeanwhile(trx, tunId, lockedDelete);
  });
}

/**
 * The tunnels a list shows, as ids: its filters on tunnels alone. The node, owner, today's
 * traffic and the live counters only add columns (the phone filter is a subquery; the deleted
 * list's node check an EXISTS, below), and on 300k tunnels joining them made the count take
 * seconds. It is both the count's query and the source of a page's ids; only tunnels can be
 * filtered on, so a filter on a joined-in column cannot type-check here and fail at run time.
 */
function filteredTunnels(ctx: AppContext, q: TunnelListQuery & { uid?: number; phone?: string }) {
  let s = ctx.db.selectFrom("tunnels");
  if (q.node_id) s = s.where("tunnels.node_id", "=", q.node_id);
  if (q.protocol) s = s.where("tunnels.protocol", "=", q.protocol);
  // One customer's tunnels (their own list, or an operator's uid filter) are few: scanned, not
  // looked up among every tunnel the index matches (a common text matched thousands).
  if (q.name)
    s = s.where(
      q.uid
        ? containsText(ctx.db, "tunnels.tun_name", q.name)
        : trigramContains(ctx.db, "tunnels.tun_name", q.name, {
            table: "tunnels_name_fts",
            column: "tun_name",
            key: "tunnels.tun_id",
          }),
    );
  if (q.uid) s = s.where("tunnels.uid", "=", q.uid);
  if (q.phone) s = s.where("tunnels.uid", "in", uidsWithPhoneContaining(ctx.db, q.phone));
  if (q.status !== undefined) s = s.where("tunnels.status", "=", q.status);
  else s = s.where("tunnels.status", "<>", TunnelStatus.Deleted);
  // Only a deleted tunnel may point at a deleted node (deleteNode refuses a node with live ones,
  // under lockNode), and the deleted list shows those whose node is still there. The other lists
  // need no look at nodes: a customer's count 48 → 14 µs (SQLite), 6k locked tunnels 1.0 → 0.5 ms
  // (PostgreSQL).
  if (q.status === TunnelStatus.Deleted)
    s = s.where(({ exists, selectFrom }) =>
      exists(selectFrom("nodes").select("nodes.node_id").whereRef("nodes.node_id", "=", "tunnels.node_id")),
    );
  return s;
}

/**
 * A page of tunnels in two steps: the page's ids from `filtered` (the count's query: tunnels
 * alone), newest first, then the list's joined rows of those ids. OFFSET then skips
 * bare tunnel rows instead of joined ones: a deep page of 300k tunnels took 130 ms, now 14.
 */
async function pageTunnels<R>(
  db: Kysely<DB>,
  filtered: ReturnType<typeof filteredTunnels>,
  page: number,
  size: number,
  present: (r: TunnelJoinedRow) => R,
  /** operators' lists: their large totals may be a few seconds old */
  memoTotal = false,
): Promise<Paged<R>> {
  return pageOf(
    page,
    size,
    async (limit, offset) => {
      const rows = await selectTunnels(db)
        .where(await pageIds(db, filtered, "tunnels.tun_id", limit, offset))
        .orderBy("tunnels.tun_id", "desc")
        .execute();
      return rows.map(present);
    },
    () => countRows(filtered, memoTotal ? db : undefined),
  );
}

/** The customer's own tunnels, newest first, filtered by node, protocol, status and name. */
export function listUserTunnels(ctx: AppContext, uid: number, q: TunnelListQuery): Promise<Paged<TunnelView>> {
  const own = filteredTunnels(ctx, { ...q, uid, phone: undefined });
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
  return pageTunnels(ctx.db, filteredTunnels(ctx, q), q.page, q.size, presentAdminTunnel, true);
}

/** One tunnel for operators, deleted ones included. */
export async function getAdminTunnel(ctx: AppContext, tunId: number): Promise<AdminTunnelRow> {
  const row = await findTunnel(ctx.db, tunId);
  if (!row) throw notFound("隧道");
  return presentAdminTunnel(row);
}

/**
 * Locks a tunnel (status 3 with a reason). If it is connected, the frp decision cache sees the
 * lock at once: new visitor connections are refused and the client's next heartbeat is refused,
 * which makes frps drop the session; the client's reconnect can no longer open this tunnel.
 */
export async function lockTunnel(trx: Tx, tunId: number, reason: string, operatorUid: number): Promise<void> {
  const now = nowIso();
  const t = await trx
    .updateTable("tunnels")
    .set({ status: TunnelStatus.Locked, banned_reason: reason, updated_at: now })
    .where("tun_id", "=", tunId)
    .returning("uid")
    .executeTakeFirst();
  if (t) trx.changes.emit("tunnel.changed", { tun_id: tunId, uid: t.uid });
  await trx
    .updateTable("tunnel_flags")
    .set({ status: IllegalStatus.Banned, handled_at: now, handled_by: operatorUid })
    .where("tun_id", "=", tunId)
    .where("status", "=", IllegalStatus.Pending)
    .execute();
}

/**
 * An operator's edit: status and banned reason change together (3 locks with a reason, 2
 * unlocks and clears it, −1 deletes), plus name and addon.
 */
export async function adminUpdateTunnel(
  ctx: AppContext,
  op: Operator,
  body: AdminUpdateTunnelBody,
): Promise<AdminTunnelRow> {
  const cur = await findTunnel(ctx.db, body.tun_id);
  if (!cur) throw notFound("隧道");
  if (cur.status === TunnelStatus.Deleted) throw refused("隧道已删除，不能修改");
  if (body.banned_reason !== undefined && body.status === undefined && cur.status !== TunnelStatus.Locked)
    throw invalid("banned_reason", "只有锁定的隧道才有封禁原因，请同时设置 status 为 3");
  if (body.addon && Object.keys(cleanAddon(body.addon)).length && cur.protocol !== "http")
    throw invalid("addon", "附加选项仅适用于 http 隧道");
  if (body.tun_name && body.tun_name !== cur.tun_name)
    await assertNameFree(ctx.db, cur.uid, body.tun_name, cur.tun_id, "该用户已有同名隧道");
  await transact(ctx, async (trx) => {
    trx.changes.emit("tunnel.changed", { tun_id: cur.tun_id, uid: cur.uid });
    const set = {
      ...(body.tun_name !== undefined && { tun_name: body.tun_name }),
      ...(body.addon !== undefined && { addon: JSON.stringify(cleanAddon(unmaskAddon(body.addon, cur))) }),
    };
    if (Object.keys(set).length)
      await trx
        .updateTable("tunnels")
        .set({ ...set, updated_at: nowIso() })
        .where("tun_id", "=", cur.tun_id)
        .execute();
    if (body.status === TunnelStatus.Locked) {
      await lockTunnel(trx, cur.tun_id, body.banned_reason ?? "", op.uid);
    } else if (body.status === TunnelStatus.Offline && cur.status === TunnelStatus.Locked) {
      await trx
        .updateTable("tunnels")
        .set({ status: TunnelStatus.Offline, banned_reason: null, updated_at: nowIso() })
        .where("tun_id", "=", cur.tun_id)
        .execute();
    } else if (body.status === TunnelStatus.Deleted) {
      await markDeleted(trx, cur.tun_id);
    } else if (body.banned_reason !== undefined && cur.status === TunnelStatus.Locked) {
      await trx
        .updateTable("tunnels")
        .set({ banned_reason: body.banned_reason })
        .where("tun_id", "=", cur.tun_id)
        .execute();
    }
    await audit(trx, {
      operatorUid: op.uid,
      action: "tunnel.update",
      target: `tunnel:${cur.tun_id}`,
      detail: body,
      ip: op.ip,
    });
  });
  return getAdminTunnel(ctx, cur.tun_id);
}
