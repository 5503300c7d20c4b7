import {
  type AdminNodeDetail,
  type AdminNodeRow,
  type CreateNodeBody,
  type NodeListQuery,
  type NodeSetup,
  NodeStatus,
  type Paged,
  TunnelStatus,
  type UpdateNodeBody,
  type UserNodeRow,
} from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import { containsText, endsWithText } from "../../db/dialect";
import type { DB } from "../../db/schema";
import type { Operator } from "../../shared/actor";
import { invalid, localDuplicated, notFound, refused } from "../../shared/errors";
import { randomToken } from "../../shared/ids";
import { recordEvent } from "../../shared/outbox";
import { countSelected, pageOf } from "../../shared/paging";
import { extend } from "../../shared/rows";
import { nowIso } from "../../shared/time";
import { type Tx, transact } from "../../shared/tx";
import { audit, changeDetail } from "../audit/audit";
import { getPlanLimits } from "../subscriptions/quota";
import { buildNodeSetup } from "./frps-config";
import { presentAdminNode, presentAdminNodeDetail, presentNodeSummary } from "./nodes.presenter";
import { findNode, liveTunnelsByNode, lockNode, type NodeJoinedRow, selectNodes } from "./nodes.repository";
import type { NodeRow } from "./nodes.table";

/** A fresh plugin secret: URL-safe, 32 bytes of entropy. */
const newSecret = () => randomToken(32);

function applyFilters<T extends ReturnType<typeof selectNodes>>(ctx: AppContext, sel: T, q: NodeListQuery): T {
  let s = sel;
  if (q.name) s = s.where(containsText(ctx.db, "nodes.name", q.name)) as T;
  if (q.area_id) s = s.where("nodes.area_id", "=", q.area_id) as T;
  if (q.net_type_id) s = s.where("nodes.net_type_id", "=", q.net_type_id) as T;
  if (q.status !== undefined) s = s.where("nodes.status", "=", q.status) as T;
  return s;
}

/** List rows with their live tunnel counts (liveTunnelsByNode). */
async function withTunnelCounts<R extends { node_id: number }>(ctx: AppContext, rows: Promise<R[]>) {
  const [list, counts] = await Promise.all([rows, liveTunnelsByNode(ctx.db)]);
  return list.map((r) => extend(r, { tunnel_count: counts.get(r.node_id) ?? 0 }));
}

/** Every node for operators, filtered by name, area, network type and status. */
export async function listAdminNodes(ctx: AppContext, q: NodeListQuery): Promise<Paged<AdminNodeRow>> {
  return pageNodes(ctx, applyFilters(ctx, selectNodes(ctx.db, { tunnelCount: false }), q), q, presentAdminNode);
}

/** One page of filtered nodes in shelf order (sort, then id), with their live tunnel counts. */
function pageNodes<R>(
  ctx: AppContext,
  sel: ReturnType<typeof selectNodes>,
  q: NodeListQuery,
  present: (r: NodeJoinedRow) => R,
): Promise<Paged<R>> {
  return pageOf(
    q.page,
    q.size,
    async (limit, offset) =>
      (
        await withTunnelCounts(
          ctx,
          sel.orderBy("nodes.sort", "asc").orderBy("nodes.node_id", "asc").limit(limit).offset(offset).execute(),
        )
      ).map(present),
    () => countSelected(sel),
  );
}

/** One node with its secrets (Manager only). */
export async function nodeDetail(ctx: AppContext, nodeId: number): Promise<AdminNodeDetail> {
  const n = await findNode(ctx.db, nodeId);
  if (!n) throw notFound("节点");
  return presentAdminNodeDetail(n);
}

type NodeValues = Omit<NodeRow, "node_id" | "created_at">;

/** Checks references, name uniqueness and port layout of a node about to be saved. */
async function validateNode(db: Kysely<DB>, v: NodeValues, exceptId?: number): Promise<void> {
  const refs = [
    ["area_id", "areas", "area_id", "地区不存在"],
    ["net_type_id", "net_types", "id", "网络类型不存在"],
    ["level_id", "plan_levels", "id", "等级不存在"],
  ] as const;
  for (const [field, table, column, msg] of refs) {
    const hit = await db
      .selectFrom(table)
      .select(column)
      .where(column, "=", v[field] as never)
      .executeTakeFirst();
    if (!hit) throw invalid(field, msg);
  }
  for (const [field, port] of [
    ["bind_port", v.bind_port],
    ["vhost_http_port", v.vhost_http_port],
    ["vhost_https_port", v.vhost_https_port],
  ] as const) {
    if (port && port >= v.port_min && port <= v.port_max)
      throw invalid("port_min", `远程端口范围 ${v.port_min}-${v.port_max} 不能包含 ${field} ${port}`);
  }
  if (v.vhost_http_port && v.vhost_http_port === v.vhost_https_port)
    throw invalid("vhost_https_port", "HTTP 与 HTTPS 端口不能相同");
  let dup = db.selectFrom("nodes").select("node_id").where("name", "=", v.name);
  if (exceptId) dup = dup.where("node_id", "<>", exceptId);
  if (await dup.executeTakeFirst()) throw localDuplicated("节点名称已存在", "name");
}

/** Creates a node with a generated plugin secret (and dashboard password when none is given). */
export async function createNode(ctx: AppContext, op: Operator, body: CreateNodeBody): Promise<AdminNodeDetail> {
  const values: NodeValues = {
    name: body.name,
    area_id: body.area_id,
    net_type_id: body.net_type_id,
    level_id: body.level_id,
    host: body.host,
    bind_port: body.bind_port,
    vhost_http_port: body.vhost_http_port ?? null,
    vhost_https_port: body.vhost_https_port ?? null,
    subdomain_host: body.subdomain_host ?? null,
    port_min: body.port_min,
    port_max: body.port_max,
    bandwidth: body.bandwidth,
    status: body.status === NodeStatus.OffShelf ? NodeStatus.OffShelf : NodeStatus.Offline,
    api_addr: body.api_addr.replace(/\/+$/, ""),
    api_user: body.api_user,
    api_password: body.api_password ?? randomToken(12),
    plugin_secret: newSecret(),
    agent_mode: body.agent_mode,
    description: body.description,
    sort: body.sort,
  };
  await validateNode(ctx.db, values);
  const nodeId = await transact(ctx, async (trx) => {
    const r = await trx
      .insertInto("nodes")
      .values({ ...values, created_at: nowIso() })
      .returning("node_id")
      .executeTakeFirstOrThrow();
    trx.changes.emit("node.changed", { node_id: r.node_id });
    const { api_password: _p, ...detail } = body;
    await audit(trx, { operatorUid: op.uid, action: "node.create", target: `node:${r.node_id}`, detail, ip: op.ip });
    return r.node_id;
  });
  return nodeDetail(ctx, nodeId);
}

/** What the node's live tunnels need from it; a change that would strand them is refused. */
async function assertTunnelsFit(db: Kysely<DB>, nodeId: number, v: NodeValues, old: NodeRow): Promise<void> {
  const live = db
    .selectFrom("tunnels")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("node_id", "=", nodeId)
    .where("status", "<>", TunnelStatus.Deleted);
  const count = async (q: typeof live) => Number((await q.executeTakeFirstOrThrow()).n);
  if (v.port_min > old.port_min || v.port_max < old.port_max) {
    const n = await count(
      // a port range's end too (remote_port_end; null for one port)
      live.where((eb) =>
        eb.or([
          eb("remote_port", "<", v.port_min),
          eb("remote_port", ">", v.port_max),
          eb("remote_port_end", ">", v.port_max),
        ]),
      ),
    );
    if (n) throw refused(`有 ${n} 条隧道的远程端口不在新范围 ${v.port_min}-${v.port_max} 内，请先处理这些隧道`);
  }
  for (const [proto, port] of [
    ["http", v.vhost_http_port],
    ["https", v.vhost_https_port],
  ] as const) {
    if (port) continue;
    const n = await count(live.where("protocol", "=", proto));
    if (n) throw refused(`节点上还有 ${n} 条 ${proto} 隧道，不能关闭 ${proto} 端口`);
  }
  if (v.subdomain_host !== old.subdomain_host) {
    const n = await count(live.where("subdomain", "is not", null));
    if (n) throw refused(`节点上还有 ${n} 条使用子域名的隧道，不能修改子域名主机`);
  }
  const host = v.subdomain_host;
  if (host && host !== old.subdomain_host) {
    // frps refuses a custom domain under its own subDomainHost (frp-protocol.md §3.5).
    const n = await count(
      live.where((eb) =>
        eb.exists(
          eb
            .selectFrom("tunnel_domains")
            .select("tunnel_domains.tun_id")
            .whereRef("tunnel_domains.tun_id", "=", "tunnels.tun_id")
            .where((d) =>
              d.or([d("tunnel_domains.domain", "=", host), endsWithText(db, "tunnel_domains.domain", `.${host}`)]),
            ),
        ),
      ),
    );
    if (n) throw refused(`节点上有 ${n} 条隧道的自定义域名属于 ${host}，不能把子域名主机改为 ${host}`);
  }
}

/**
 * Edits a node; `status` −1/2 takes it off / puts it on the shelf; `reset_secret` issues a new
 * plugin secret. Under the node's lock, so that a tunnel created or edited meanwhile is either
 * counted by assertTunnelsFit or checked against the new values (lockNode).
 */
export async function updateNode(ctx: AppContext, op: Operator, body: UpdateNodeBody): Promise<AdminNodeDetail> {
  const { node_id, reset_secret, status, ...changes } = body;
  await transact(ctx, async (trx) => {
    const old = await lockNode(trx, node_id, "update");
    if (!old) throw notFound("节点");
    const pick = <K extends keyof NodeValues>(k: K): NodeValues[K] =>
      (changes as Partial<NodeValues>)[k] !== undefined
        ? ((changes as Partial<NodeValues>)[k] as NodeValues[K])
        : old[k];
    // Back on the shelf means "offline until the next poll says otherwise".
    let nextStatus = old.status;
    if (status === NodeStatus.OffShelf) nextStatus = NodeStatus.OffShelf;
    else if (status !== undefined && old.status === NodeStatus.OffShelf) nextStatus = NodeStatus.Offline;
    const values: NodeValues = {
      name: pick("name"),
      area_id: pick("area_id"),
      net_type_id: pick("net_type_id"),
      level_id: pick("level_id"),
      host: pick("host"),
      bind_port: pick("bind_port"),
      vhost_http_port: pick("vhost_http_port"),
      vhost_https_port: pick("vhost_https_port"),
      subdomain_host: pick("subdomain_host"),
      port_min: pick("port_min"),
      port_max: pick("port_max"),
      bandwidth: pick("bandwidth"),
      status: nextStatus,
      api_addr: pick("api_addr").replace(/\/+$/, ""),
      api_user: pick("api_user"),
      api_password: pick("api_password"),
      plugin_secret: reset_secret ? newSecret() : old.plugin_secret,
      agent_mode: pick("agent_mode"),
      description: pick("description"),
      sort: pick("sort"),
    };
    if (values.port_min > values.port_max) throw invalid("port_max", "端口上限不能小于下限");
    await validateNode(trx, values, node_id);
    await assertTunnelsFit(trx, node_id, values, old);
    await trx.updateTable("nodes").set(values).where("node_id", "=", node_id).execute();
    trx.changes.emit("node.changed", { node_id });
    // The fields sent, with their old values (the panel password is never recorded).
    const { api_password: _p, ...shown } = changes;
    const detail = changeDetail(
      old,
      { ...shown, ...(status !== undefined && { status: nextStatus }) },
      reset_secret ? { reset_secret } : {},
    );
    await audit(trx, { operatorUid: op.uid, action: "node.update", target: `node:${node_id}`, detail, ip: op.ip });
  });
  return nodeDetail(ctx, node_id);
}

/**
 * The node's health as the frp poller saw it (1 online, 2 offline, 3 exception), announced to the
 * frp decision caches. An operator's taking the node off the shelf wins over the poller. Going
 * from online to offline or exception records "node.down" (with `reason`, the poll's error), and
 * back to online "node.up": the operators' notices.
 */
export async function setNodeHealth(tx: Tx, nodeId: number, status: number, reason?: string | null): Promise<void> {
  const before = await tx
    .selectFrom("nodes")
    .select(["status", "name"])
    .where("node_id", "=", nodeId)
    .executeTakeFirst();
  await tx
    .updateTable("nodes")
    .set({ status })
    .where("node_id", "=", nodeId)
    .where("status", "<>", NodeStatus.OffShelf)
    .execute();
  tx.changes.emit("node.changed", { node_id: nodeId });
  if (!before || before.status === NodeStatus.OffShelf || before.status === status) return;
  const at = new Date().toISOString();
  const down = status === NodeStatus.Offline || status === NodeStatus.Exception;
  if (before.status === NodeStatus.Online && down)
    await recordEvent(tx, "node.down", { node_id: nodeId, name: before.name, at, reason: reason || "无法连接" });
  else if (status === NodeStatus.Online && before.status !== NodeStatus.Online)
    await recordEvent(tx, "node.up", { node_id: nodeId, name: before.name, at });
}

/** Deletes a node that no live tunnel uses, with its poller state (the node-deleted hooks). */
export async function deleteNode(ctx: AppContext, op: Operator, nodeId: number): Promise<void> {
  await transact(ctx, async (trx) => {
    // Under the node's lock, so that a tunnel being created on it is counted (lockNode).
    if (!(await lockNode(trx, nodeId, "update"))) throw notFound("节点");
    const live = await trx
      .selectFrom("tunnels")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("node_id", "=", nodeId)
      .where("status", "<>", TunnelStatus.Deleted)
      .executeTakeFirstOrThrow();
    if (Number(live.n) > 0) throw refused(`节点上还有 ${live.n} 条隧道，请先删除或迁移这些隧道`);
    await trx.deleteFrom("nodes").where("node_id", "=", nodeId).execute();
    trx.changes.emit("node.changed", { node_id: nodeId });
    for (const hook of ctx.nodeDeletedHooks) await hook(trx, nodeId);
    await audit(trx, { operatorUid: op.uid, action: "node.delete", target: `node:${nodeId}`, ip: op.ip });
  });
}

/** The frps.toml and install scripts of a node. */
export async function nodeSetup(ctx: AppContext, nodeId: number, publicUrl: string): Promise<NodeSetup> {
  const node = await ctx.db.selectFrom("nodes").selectAll().where("node_id", "=", nodeId).executeTakeFirst();
  if (!node) throw notFound("节点");
  return buildNodeSetup(node, publicUrl, ctx.config.PUBLIC_URL ?? null);
}

/**
 * The nodes a customer may use: on the shelf and at or below their plan's level. Without a plan
 * in force the list is empty.
 */
export async function listUserNodes(ctx: AppContext, uid: number, q: NodeListQuery): Promise<Paged<UserNodeRow>> {
  const limits = await getPlanLimits(ctx.db, uid);
  if (!limits) return { list: [], total: 0, page: q.page, size: q.size };
  const sel = applyFilters(
    ctx,
    selectNodes(ctx.db, { tunnelCount: false })
      .where("nodes.status", "<>", NodeStatus.OffShelf)
      .where("plan_levels.level", "<=", limits.level),
    q,
  );
  return pageNodes(ctx, sel, q, presentNodeSummary);
}
