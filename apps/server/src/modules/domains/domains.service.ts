import {
  type AddDomainBody,
  type AdminDomainListQuery,
  type AdminDomainRow,
  type AdminUnbindDomainBody,
  coveringWildcard,
  type DomainListQuery,
  type DomainState,
  type DomainVerifyResult,
  type DomainView,
  domainApex,
  isWildcard,
  NodeStatus,
  type Paged,
} from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import { containsText } from "../../db/dialect";
import { isUniqueViolation } from "../../db/errors";
import type { DB } from "../../db/schema";
import type { Operator } from "../../shared/actor";
import { invalid, localDuplicated, notFound, refused, remoteDuplicated } from "../../shared/errors";
import { randomToken } from "../../shared/ids";
import { lockUser } from "../../shared/locks";
import { recordEvent } from "../../shared/outbox";
import { countRows, pageOf } from "../../shared/paging";
import { nowIso } from "../../shared/time";
import { direct, type Tx, transact } from "../../shared/tx";
import { audit } from "../audit/audit";
import { type DomainTargetNode, domainTargetNodes } from "../nodes/nodes.repository";
import { tunnelsUsingDomains, tunnelsUsingDomainsUnder } from "../tunnels/tunnels.repository";
import { userBriefs } from "../users/users.repository";
import { checkRecords, domainRecords, makeResolver } from "./dns-check";
import { domainNames } from "./domain-rules";
import { domainHolder } from "./domains.repository";
import type { DomainRow } from "./domains.table";

/** Domains one customer may have at once (pending ones included). */
export const DOMAINS_PER_CUSTOMER = 50;

const HOUR_MS = 3_600_000;
export const graceMs = (ctx: AppContext): number => ctx.config.DOMAIN_GRACE_HOURS * HOUR_MS;

/** When a flagged domain stops serving its tunnels. */
export const graceUntil = (ctx: AppContext, r: Pick<DomainRow, "status" | "flagged_at">): string | null =>
  r.status === "flagged" && r.flagged_at ? new Date(Date.parse(r.flagged_at) + graceMs(ctx)).toISOString() : null;

async function nodesOf(db: Kysely<DB>, rows: DomainRow[]): Promise<Map<number, DomainTargetNode>> {
  return domainTargetNodes(
    db,
    rows.map((r) => r.node_id),
  );
}

const MISSING_NODE = {
  node_id: 0,
  name: "（已删除的节点）",
  host: "",
  subdomain_host: null,
  status: 0,
  icp_required: 0,
};

async function tunnelsByDomain(db: Kysely<DB>, rows: DomainRow[]) {
  const apexes = rows.filter((r) => isWildcard(r.domain)).map((r) => domainApex(r.domain));
  const [uses, under] = await Promise.all([
    tunnelsUsingDomains(
      db,
      rows.map((r) => r.domain),
    ),
    tunnelsUsingDomainsUnder(db, apexes),
  ]);
  /** only the row owner's tunnels count as using its domain; a wildcard's, with the names it covers */
  return (r: DomainRow) => {
    const mine = [...uses, ...under].filter(
      (u) => u.uid === r.uid && (u.domain === r.domain || coveringWildcard(u.domain) === r.domain),
    );
    const seen = new Set<number>();
    return mine
      .filter((u) => !seen.has(u.tun_id) && seen.add(u.tun_id))
      .map(({ tun_id, tun_name }) => ({ tun_id, tun_name }));
  };
}

async function present(ctx: AppContext, rows: DomainRow[]): Promise<DomainView[]> {
  const [nodes, usesOf] = await Promise.all([nodesOf(ctx.db, rows), tunnelsByDomain(ctx.db, rows)]);
  return rows.map((r) => {
    const node = nodes.get(r.node_id) ?? MISSING_NODE;
    return {
      id: r.id,
      domain: r.domain,
      node_id: r.node_id,
      node_name: node.name,
      state: r.status as DomainState,
      icp_no: r.icp_no,
      records: node.host ? domainRecords(r.domain, r.token, node) : [],
      problem: r.problem,
      verified_at: r.verified_at,
      checked_at: r.checked_at,
      flagged_at: r.flagged_at,
      grace_until: graceUntil(ctx, r),
      unbind_reason: r.unbind_reason,
      tunnels: usesOf(r),
      created_at: r.created_at,
    };
  });
}

async function ownRow(db: Kysely<DB>, uid: number, id: number): Promise<DomainRow> {
  const row = await db.selectFrom("domains").selectAll().where("id", "=", id).where("uid", "=", uid).executeTakeFirst();
  // Another customer's row is as absent as a missing one.
  if (!row) throw notFound("域名");
  return row;
}

/** GET /user/domain */
export async function listDomains(ctx: AppContext, uid: number, q: DomainListQuery): Promise<Paged<DomainView>> {
  let sel = ctx.db.selectFrom("domains").where("uid", "=", uid);
  if (q.domain) sel = sel.where(containsText(ctx.db, "domain", q.domain.toLowerCase()));
  return pageOf(
    q.page,
    q.size,
    async (limit, offset) =>
      present(ctx, await sel.selectAll().orderBy("id", "desc").limit(limit).offset(offset).execute()),
    () => countRows(sel),
  );
}

/** POST /user/domain: a pending domain with a fresh token. */
export async function addDomain(ctx: AppContext, uid: number, body: AddDomainBody): Promise<DomainView> {
  const d = body.domain;
  const node = (await domainTargetNodes(ctx.db, [body.node_id])).get(body.node_id);
  if (!node) throw invalid("node_id", "节点不存在");
  if (node.status === NodeStatus.OffShelf) throw invalid("node_id", "节点已下架");
  if (node.icp_required && !body.icp_no)
    throw invalid("icp_no", `节点 ${node.name} 所在地区要求域名已备案，请填写 ICP 备案号`);
  const refusal = (await domainNames(ctx.db, ctx.config.PUBLIC_URL)).refusal(d);
  if (refusal) throw invalid("domain", `${d} ${refusal}`);
  const holder = await domainHolder(ctx.db, d);
  if (holder && holder.uid !== uid) throw remoteDuplicated(`域名 ${d} 已被其他用户验证`, "domain");
  const now = nowIso();
  try {
    const row = await ctx.db.transaction().execute(async (trx) => {
      await lockUser(trx, uid);
      const mine = await trx
        .selectFrom("domains")
        .select(["id", "status"])
        .where("uid", "=", uid)
        .where("domain", "=", d)
        .executeTakeFirst();
      if (mine) throw localDuplicated(`域名 ${d} 已添加`, "domain");
      const n = await trx
        .selectFrom("domains")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("uid", "=", uid)
        .executeTakeFirstOrThrow();
      if (Number(n.n) >= DOMAINS_PER_CUSTOMER) throw refused(`最多添加 ${DOMAINS_PER_CUSTOMER} 个域名`);
      return trx
        .insertInto("domains")
        .values({
          uid,
          domain: d,
          node_id: node.node_id,
          token: randomToken(24),
          status: "pending",
          verified_domain: null,
          icp_no: body.icp_no ?? null,
          problem: null,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    return (await present(ctx, [row]))[0];
  } catch (err) {
    if (isUniqueViolation(err)) throw localDuplicated(`域名 ${d} 已添加`, "domain");
    throw err;
  }
}

/**
 * DELETE /user/domain: only when no tunnel uses it, and never an unbound one (the operator's
 * decision stays). Under the customer's lock, which their tunnel writes take before checking
 * their domains: a tunnel written meanwhile is either counted here or finds the domain gone.
 */
export async function deleteDomain(ctx: AppContext, uid: number, id: number): Promise<void> {
  const row = await ctx.db.transaction().execute(async (trx) => {
    await lockUser(trx, uid);
    const row = await ownRow(trx, uid, id);
    if (row.status === "unbound") throw refused(`域名 ${row.domain} 已被管理员解绑，如有疑问请提交工单`);
    const usesOf = await tunnelsByDomain(trx, [row]);
    const uses = usesOf(row);
    if (uses.length)
      throw refused(`域名 ${row.domain} 正被隧道 ${uses.map((u) => u.tun_name).join("、")} 使用，请先修改这些隧道`);
    await trx.deleteFrom("domains").where("id", "=", row.id).where("uid", "=", uid).execute();
    return row;
  });
  await announce(direct(ctx), row);
}

/**
 * The outcome of looking a domain's records up, applied to its row. A verified (or flagged)
 * domain whose TXT record is gone is flagged (its grace period starts at the first miss); one
 * flagged past its grace period lapses to pending and frees the name. A failed lookup (timeout)
 * changes no state. Returns the updated row.
 */
async function applyCheck(ctx: AppContext, row: DomainRow, now: Date): Promise<{ row: DomainRow; ok: boolean }> {
  const node = (await domainTargetNodes(ctx.db, [row.node_id])).get(row.node_id);
  const at = now.toISOString();
  if (!node) {
    const r = await update(ctx, row, { problem: "域名所选的节点已删除，请删除该域名后重新添加", checked_at: at });
    return { row: r, ok: false };
  }
  const check = await checkRecords(makeResolver(ctx.config.DNS_SERVERS), row.domain, row.token, node);
  const problem = check.problems.length ? check.problems.join("；") : null;
  const held = row.status === "verified" || row.status === "flagged";
  if (check.txtOk && (check.targetOk || held)) {
    // Verified: both records at the first verification; later re-checks only need the TXT proof
    // (a CNAME moved elsewhere stops the traffic, not the ownership), and say what is wrong.
    const r = await update(ctx, row, {
      status: "verified",
      verified_domain: row.domain,
      verified_at: held ? row.verified_at : at,
      flagged_at: null,
      problem,
      checked_at: at,
    });
    return { row: r, ok: true };
  }
  if (!held || check.txtUnknown) {
    return { row: await update(ctx, row, { problem, checked_at: at }), ok: false };
  }
  const flaggedAt = row.flagged_at ?? at;
  if (now.getTime() - Date.parse(flaggedAt) >= graceMs(ctx)) {
    const reason = "TXT 验证记录缺失超过宽限期";
    const r = await transact(ctx, async (trx) => {
      const lapsed = await update(
        ctx,
        row,
        {
          status: "pending",
          verified_domain: null,
          flagged_at: null,
          verified_at: null,
          problem: `${reason}，域名已失效，请恢复记录后重新验证。${problem ?? ""}`,
          checked_at: at,
        },
        trx,
      );
      // The customer's notice; once per verification (a new one has a new verified_at).
      await recordEvent(
        trx,
        "domain.verification_lost",
        { uid: row.uid, domain_id: row.id, domain: row.domain, reason },
        { key: `domain.verification_lost:${row.id}:${row.verified_at}`, now },
      );
      return lapsed;
    });
    return { row: r, ok: false };
  }
  const r = await update(ctx, row, { status: "flagged", flagged_at: flaggedAt, problem, checked_at: at });
  return { row: r, ok: false };
}

async function update(
  ctx: AppContext,
  row: DomainRow,
  set: Partial<DomainRow>,
  db: Tx = direct(ctx),
): Promise<DomainRow> {
  let r: DomainRow;
  try {
    r = await db
      .updateTable("domains")
      .set({ ...set, updated_at: nowIso() })
      .where("id", "=", row.id)
      // An operator's unbind in between wins: the check never revives an unbound row.
      .where("status", "<>", "unbound")
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (err) {
    // Another customer verified the same name a moment earlier (the unique index).
    if (isUniqueViolation(err)) throw remoteDuplicated(`域名 ${row.domain} 已被其他用户验证`, "id");
    if ((err as Error).name === "NoResultError") throw refused(`域名 ${row.domain} 已被管理员解绑`);
    throw err;
  }
  if (r.status !== row.status || r.verified_domain !== row.verified_domain) await announce(db, row);
  return r;
}

/**
 * A name changed hands: its owner's decision entry, and that of the customer holding the wildcard
 * over it (whose tunnels it stops or starts covering, domain-gate.ts), are dropped.
 */
async function announce(db: Tx, row: Pick<DomainRow, "uid" | "domain">): Promise<void> {
  db.changes.emit("domain.changed", { uid: row.uid });
  const wildcard = coveringWildcard(row.domain);
  const over = wildcard ? await domainHolder(db, wildcard) : undefined;
  if (over && over.uid !== row.uid) db.changes.emit("domain.changed", { uid: over.uid });
}

/** POST /user/domain/verify */
export async function verifyDomain(ctx: AppContext, uid: number, id: number): Promise<DomainVerifyResult> {
  const row = await ownRow(ctx.db, uid, id);
  if (row.status === "unbound")
    throw refused(`域名 ${row.domain} 已被管理员解绑${row.unbind_reason ? `：${row.unbind_reason}` : ""}`);
  const holder = await domainHolder(ctx.db, row.domain);
  if (holder && holder.uid !== uid) throw remoteDuplicated(`域名 ${row.domain} 已被其他用户验证`, "id");
  const { row: after, ok } = await applyCheck(ctx, row, new Date());
  return { ok, domain: (await present(ctx, [after]))[0] };
}

/**
 * The daily re-check of every held domain (verified or flagged): flags those whose TXT record is
 * gone, lapses those flagged past the grace period, restores those whose record is back.
 */
export async function recheckDomains(
  ctx: AppContext,
  now = new Date(),
): Promise<{ checked: number; flagged: number; lapsed: number }> {
  const rows = await ctx.db
    .selectFrom("domains")
    .selectAll()
    .where("status", "in", ["verified", "flagged"])
    .orderBy("id")
    .execute();
  let flagged = 0;
  let lapsed = 0;
  for (const row of rows) {
    try {
      const { row: after } = await applyCheck(ctx, row, now);
      if (after.status === "flagged" && row.status !== "flagged") flagged++;
      if (after.status === "pending") lapsed++;
    } catch (err) {
      ctx.log.warn({ err, domain: row.domain }, "domain re-check failed");
    }
  }
  return { checked: rows.length, flagged, lapsed };
}

// ---------------------------------------------------------------- operators

async function presentAdmin(ctx: AppContext, rows: DomainRow[]): Promise<AdminDomainRow[]> {
  const [nodes, usesOf, users] = await Promise.all([
    nodesOf(ctx.db, rows),
    tunnelsByDomain(ctx.db, rows),
    userBriefs(
      ctx.db,
      rows.map((r) => r.uid),
    ),
  ]);
  return rows.map((r) => ({
    id: r.id,
    uid: r.uid,
    nickname: users.get(r.uid)?.nickname ?? "",
    phone: users.get(r.uid)?.phone ?? "",
    domain: r.domain,
    node_id: r.node_id,
    node_name: (nodes.get(r.node_id) ?? MISSING_NODE).name,
    state: r.status as DomainState,
    icp_no: r.icp_no,
    problem: r.problem,
    verified_at: r.verified_at,
    checked_at: r.checked_at,
    flagged_at: r.flagged_at,
    unbound_at: r.unbound_at,
    unbind_reason: r.unbind_reason,
    tunnels: usesOf(r),
    created_at: r.created_at,
  }));
}

/** GET /super/domain */
export async function listAdminDomains(ctx: AppContext, q: AdminDomainListQuery): Promise<Paged<AdminDomainRow>> {
  let sel = ctx.db.selectFrom("domains");
  if (q.domain) sel = sel.where(containsText(ctx.db, "domain", q.domain.toLowerCase()));
  if (q.uid) sel = sel.where("uid", "=", q.uid);
  if (q.state) sel = sel.where("status", "=", q.state);
  return pageOf(
    q.page,
    q.size,
    async (limit, offset) =>
      presentAdmin(ctx, await sel.selectAll().orderBy("id", "desc").limit(limit).offset(offset).execute()),
    () => countRows(sel),
  );
}

/** POST /super/domain/unbind: audited; the name is freed and its tunnels refused from their next NewProxy. */
export async function unbindDomain(
  ctx: AppContext,
  op: Operator,
  body: AdminUnbindDomainBody,
): Promise<AdminDomainRow> {
  const row = await ctx.db.transaction().execute(async (trx) => {
    const cur = await trx.selectFrom("domains").selectAll().where("id", "=", body.id).executeTakeFirst();
    if (!cur) throw notFound("域名");
    if (cur.status === "unbound") throw refused(`域名 ${cur.domain} 已解绑`);
    const at = nowIso();
    const r = await trx
      .updateTable("domains")
      .set({
        status: "unbound",
        verified_domain: null,
        unbound_at: at,
        unbind_reason: body.reason,
        problem: `已被管理员解绑：${body.reason}`,
        updated_at: at,
      })
      .where("id", "=", cur.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(trx, {
      operatorUid: op.uid,
      action: "domain.unbind",
      target: `domain:${cur.id}`,
      detail: { domain: cur.domain, uid: cur.uid, from: cur.status, reason: body.reason },
      ip: op.ip,
    });
    return r;
  });
  await announce(direct(ctx), row);
  return (await presentAdmin(ctx, [row]))[0];
}
