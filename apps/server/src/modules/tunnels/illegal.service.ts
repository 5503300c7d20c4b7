import {
  type AbuseReportBody,
  type CreateIllegalRuleBody,
  type HandleIllegalBody,
  type IllegalFlagRow,
  type IllegalListQuery,
  type IllegalRuleRow,
  IllegalStatus,
  type Paged,
  type PageQuery,
  TunnelStatus,
} from "@burrow/contract";
import type { AppContext } from "../../context";
import type { Operator } from "../../shared/actor";
import { invalid, localDuplicated, notFound, rateLimited, refused } from "../../shared/errors";
import { countRows, pageOf, pageOfQuery } from "../../shared/paging";
import { clientKey } from "../../shared/rate-limit";
import { nowIso } from "../../shared/time";
import { transact } from "../../shared/tx";
import { audit } from "../audit/audit";
import { shownPhone } from "../users/users.presenter";
import { lockTunnel } from "./tunnels.admin";
import { tunnelAddresses, tunnelCustomDomains } from "./tunnels.presenter";

/** Flags for operators, newest first, filtered by state, source, owner, node and tunnel. */
export async function listFlags(ctx: AppContext, q: IllegalListQuery): Promise<Paged<IllegalFlagRow>> {
  let sel = ctx.db
    .selectFrom("tunnel_flags as f")
    .innerJoin("tunnels as t", "t.tun_id", "f.tun_id")
    .leftJoin("nodes as n", "n.node_id", "t.node_id")
    .leftJoin("users as u", "u.uid", "f.uid");
  if (q.status !== undefined) sel = sel.where("f.status", "=", q.status);
  if (q.source) sel = sel.where("f.source", "=", q.source);
  if (q.uid) sel = sel.where("f.uid", "=", q.uid);
  if (q.node_id) sel = sel.where("f.node_id", "=", q.node_id);
  if (q.tun_id) sel = sel.where("f.tun_id", "=", q.tun_id);
  return pageOf(
    q.page,
    q.size,
    async (limit, offset) => {
      const rows = await sel
        .selectAll("f")
        .select([
          "t.tun_name",
          "t.status as tun_status",
          "t.protocol",
          "t.remote_port",
          "t.custom_domains",
          "t.subdomain",
          "n.name as node_name",
          "n.host",
          "n.vhost_http_port",
          "n.vhost_https_port",
          "n.subdomain_host",
          "u.phone",
        ])
        .orderBy("f.id", "desc")
        .limit(limit)
        .offset(offset)
        .execute();
      return rows.map((r) => ({
        id: r.id,
        tun_id: r.tun_id,
        tun_name: r.tun_name,
        tun_status: r.tun_status,
        protocol: r.protocol,
        addresses: tunnelAddresses(
          { ...r, custom_domains: tunnelCustomDomains(r) },
          {
            host: r.host ?? "",
            http_port: r.vhost_http_port ?? null,
            https_port: r.vhost_https_port ?? null,
            subdomain_host: r.subdomain_host ?? null,
          },
        ),
        uid: r.uid,
        phone: shownPhone(r.phone),
        node_id: r.node_id,
        node_name: r.node_name ?? `#${r.node_id}`,
        source: r.source as IllegalFlagRow["source"],
        rule_id: r.rule_id,
        reason: r.reason,
        reporter: r.reporter,
        status: r.status,
        created_at: r.created_at,
        handled_at: r.handled_at,
        handled_by: r.handled_by,
      }));
    },
    () => countRows(sel),
  );
}

/**
 * Bans (locks the tunnel with a reason, which cuts it off at the node) or clears one flag.
 * Banning also settles the tunnel's other pending flags.
 */
export async function handleFlag(ctx: AppContext, op: Operator, body: HandleIllegalBody): Promise<void> {
  const flag = await ctx.db.selectFrom("tunnel_flags").selectAll().where("id", "=", body.id).executeTakeFirst();
  if (!flag) throw notFound("违规记录");
  if (flag.status !== IllegalStatus.Pending) throw refused("该记录已处理");
  const tunnel = await ctx.db
    .selectFrom("tunnels")
    .select(["tun_id", "uid", "status"])
    .where("tun_id", "=", flag.tun_id)
    .executeTakeFirstOrThrow();
  if (body.action === "ban" && tunnel.status === TunnelStatus.Deleted) throw refused("隧道已删除，无需封禁");
  await transact(ctx, async (trx) => {
    if (body.action === "ban") {
      await lockTunnel(trx, flag.tun_id, body.banned_reason ?? flag.reason, op.uid);
    } else {
      await trx
        .updateTable("tunnel_flags")
        .set({ status: IllegalStatus.Cleared, handled_at: nowIso(), handled_by: op.uid })
        .where("id", "=", flag.id)
        .execute();
    }
    await audit(trx, {
      operatorUid: op.uid,
      action: `illegal.${body.action}`,
      target: `tunnel:${flag.tun_id}`,
      detail: body,
      ip: op.ip,
    });
  });
}

/** Operator rules with how many flags each raised. */
export async function listRules(
  ctx: AppContext,
  q: PageQuery & { kind?: "keyword" | "port" },
): Promise<Paged<IllegalRuleRow>> {
  let sel = ctx.db.selectFrom("illegal_rules");
  if (q.kind) sel = sel.where("kind", "=", q.kind);
  return pageOfQuery(
    q,
    sel,
    (s) =>
      s
        .selectAll("illegal_rules")
        .select((eb) =>
          eb
            .selectFrom("tunnel_flags")
            .select((e) => e.fn.countAll<number>().as("n"))
            .whereRef("tunnel_flags.rule_id", "=", "illegal_rules.id")
            .as("hits"),
        )
        .orderBy("id", "desc"),
    (r) => ({ ...r, kind: r.kind as IllegalRuleRow["kind"], hits: Number(r.hits ?? 0) }),
  );
}

/** Adds a rule; tunnels are judged by it when created or edited and by the poller while online. */
export async function createRule(ctx: AppContext, op: Operator, body: CreateIllegalRuleBody): Promise<IllegalRuleRow> {
  const value = body.kind === "keyword" ? body.value.toLowerCase() : body.value;
  const dup = await ctx.db
    .selectFrom("illegal_rules")
    .select("id")
    .where("kind", "=", body.kind)
    .where("value", "=", value)
    .executeTakeFirst();
  if (dup) throw localDuplicated("相同的规则已存在", "value");
  const row = await ctx.db.transaction().execute(async (trx) => {
    const r = await trx
      .insertInto("illegal_rules")
      .values({ kind: body.kind, value, note: body.note, created_at: nowIso() })
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(trx, {
      operatorUid: op.uid,
      action: "illegal.rule.create",
      target: `rule:${r.id}`,
      detail: body,
      ip: op.ip,
    });
    return r;
  });
  return { ...row, kind: body.kind, hits: 0 };
}

/** Removes a rule; the flags it raised stay. */
export async function deleteRule(ctx: AppContext, op: Operator, id: number): Promise<void> {
  const rule = await ctx.db.selectFrom("illegal_rules").select("id").where("id", "=", id).executeTakeFirst();
  if (!rule) throw notFound("规则");
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom("illegal_rules").where("id", "=", id).execute();
    await audit(trx, { operatorUid: op.uid, action: "illegal.rule.delete", target: `rule:${id}`, ip: op.ip });
  });
}

/** host, port and domain candidates of what a reporter pasted (URL, host:port or bare domain). */
function parseTarget(target: string): { host: string; port: number | null } {
  const raw = target.trim();
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `tcp://${raw}`);
    const port = url.port ? Number(url.port) : null;
    return { host: url.hostname.toLowerCase().replace(/\.$/, ""), port };
  } catch {
    throw invalid("target", "无法识别的地址，请填写域名、网址或 主机:端口");
  }
}

/**
 * The names frps's vhost router tries for a Host, in its order: the exact name, then the wildcard
 * one label up, walking up (`a.b.x.com` → `*.b.x.com`, `*.x.com`). Burrow allows no `*.com` or `*`.
 */
export function vhostRoute(host: string): string[] {
  const out = [host];
  const labels = host.split(".");
  for (let i = 1; i < labels.length - 1; i++) out.push(`*.${labels.slice(i).join(".")}`);
  return out;
}

/**
 * A public abuse report: finds the live tunnel behind an address (a domain a tunnel holds, or
 * the wildcard frps routes it to: vhostRoute; or a node host with a remote port) and flags it for review. Limited per IP; one pending report
 * per tunnel is enough for operators to look at it.
 */
export async function reportAbuse(ctx: AppContext, ip: string, body: AbuseReportBody): Promise<null> {
  const hit = await ctx.limiter.hit(`abuse:${clientKey(ip)}`, 10, 3600);
  if (!hit.allowed) throw rateLimited(hit.retryAfterSec);
  const { host, port } = parseTarget(body.target);
  const names = vhostRoute(host);
  const byDomain = (
    await ctx.db
      .selectFrom("tunnel_domains")
      .innerJoin("tunnels", "tunnels.tun_id", "tunnel_domains.tun_id")
      .select(["tunnels.tun_id", "tunnels.uid", "tunnels.node_id", "tunnel_domains.domain"])
      .where("tunnel_domains.domain", "in", names)
      .where("tunnels.status", "<>", TunnelStatus.Deleted)
      .execute()
  ).sort((a, b) => names.indexOf(a.domain) - names.indexOf(b.domain))[0];
  const tunnel =
    byDomain ??
    (port
      ? await ctx.db
          .selectFrom("tunnels")
          .innerJoin("nodes", "nodes.node_id", "tunnels.node_id")
          .select(["tunnels.tun_id", "tunnels.uid", "tunnels.node_id"])
          .where("nodes.host", "=", host)
          // a port-range tunnel holds every port from remote_port to remote_port_end
          .where("tunnels.remote_port", "<=", port)
          .where((eb) => eb(eb.fn.coalesce("tunnels.remote_port_end", "tunnels.remote_port"), ">=", port))
          .where("tunnels.status", "<>", TunnelStatus.Deleted)
          .executeTakeFirst()
      : undefined);
  if (!tunnel) throw invalid("target", "未找到该地址对应的隧道，请检查地址");
  const pending = await ctx.db
    .selectFrom("tunnel_flags")
    .select("id")
    .where("tun_id", "=", tunnel.tun_id)
    .where("source", "=", "report")
    .where("status", "=", IllegalStatus.Pending)
    .executeTakeFirst();
  if (!pending) {
    await ctx.db
      .insertInto("tunnel_flags")
      .values({
        tun_id: tunnel.tun_id,
        uid: tunnel.uid,
        node_id: tunnel.node_id,
        source: "report",
        rule_id: null,
        reason: `举报：${body.reason}`.slice(0, 500),
        reporter: body.contact,
        status: IllegalStatus.Pending,
        created_at: nowIso(),
        handled_at: null,
        handled_by: null,
      })
      .execute();
  }
  // null as the contract says (POST /public/abuse answers no data)
  return null;
}
