import {
  type Paged,
  type PageQuery,
  parseIpNet,
  SHIELD_BAN_CAP,
  SHIELD_DEFAULT_PORTS,
  SHIELD_DEFAULT_RULE,
  SHIELD_PROTOCOLS,
  type ShieldBanRow,
  type ShieldBody,
  type ShieldView,
} from "@burrow/contract";
import type { ShieldBanDecision, TunnelShield } from "@burrow/frp-decision";
import { type Kysely, sql } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { notFound } from "../../shared/errors";
import { parseJson } from "../../shared/json";
import { lockUser } from "../../shared/locks";
import { countRows, pageOfQuery } from "../../shared/paging";
import { nowIso } from "../../shared/time";
import { type Tx, transact } from "../../shared/tx";
import type { TunnelShieldTable } from "./shield.table";
import { findOwnTunnel } from "./tunnels.repository";

/*
 * 访客防护 (docs/shield.md): the customer's lists and ban rule per tunnel, the bans the frp plugin
 * decided, and what the decision cache loads of them (once per user load, never per visitor).
 */

type TunnelKind = { tun_id: number; protocol: string; remote_port: number | null; remote_port_end?: number | null };

/** Whether a tunnel's port, or any port of its range, is one the ban rule is on for by default. */
function coversDefaultPort(t: TunnelKind): boolean {
  const first = t.remote_port;
  if (first === null) return false;
  const last = t.remote_port_end ?? first;
  return SHIELD_DEFAULT_PORTS.some((p) => p >= first && p <= last);
}

/** What a tunnel without a saved setting gets: the ban rule on for SSH, RDP and VNC ports (a range holding one too). */
function defaultsFor(t: TunnelKind): ShieldBody {
  return {
    allow: [],
    deny: [],
    rule_enabled: coversDefaultPort(t),
    ...SHIELD_DEFAULT_RULE,
  };
}

function settingsOf(row: TunnelShieldTable): ShieldBody {
  return {
    allow: parseJson<string[]>(row.allow_list, []),
    deny: parseJson<string[]>(row.deny_list, []),
    rule_enabled: row.rule_enabled === 1,
    conns: row.rule_conns,
    window_s: row.rule_window_s,
    ban_s: row.rule_ban_s,
  };
}

const applies = (t: TunnelKind) => SHIELD_PROTOCOLS.includes(t.protocol);

/**
 * The shields of a user's tunnels for the decision cache: one query for the settings and one for
 * the bans in force, then `shieldOf(tunnel)` (null for a tunnel with nothing to check).
 */
export async function loadUserShields(db: Kysely<DB>, uid: number): Promise<(t: TunnelKind) => TunnelShield | null> {
  const now = nowIso();
  const [rows, bans] = await Promise.all([
    db.selectFrom("tunnel_shields").selectAll().where("uid", "=", uid).execute(),
    db
      .selectFrom("shield_bans")
      .select(["tun_id", "ip", "reason", "until"])
      .where("uid", "=", uid)
      .where("until", ">", now)
      .where("lifted_at", "is", null)
      .execute(),
  ]);
  const byTunnel = new Map(rows.map((r) => [r.tun_id, r]));
  return (t) => {
    if (!applies(t)) return null;
    const row = byTunnel.get(t.tun_id);
    const s = row ? settingsOf(row) : defaultsFor(t);
    const own = bans.filter((b) => b.tun_id === t.tun_id);
    if (!s.allow.length && !s.deny.length && !s.rule_enabled && !own.length) return null;
    return {
      allow: s.allow,
      deny: s.deny,
      rule: s.rule_enabled ? { conns: s.conns, window_s: s.window_s, ban_s: s.ban_s } : null,
      version: row?.version ?? 0,
      bans: own.map((b) => ({ ip: b.ip, until_ms: Date.parse(b.until), reason: b.reason })),
    };
  };
}

async function ownTunnel(db: Kysely<DB>, uid: number, tunId: number): Promise<TunnelKind> {
  const t = await findOwnTunnel(db, uid, tunId);
  if (!t) throw notFound("隧道");
  return t;
}

/** A tunnel's bans in force (the list's and the cap's filter). */
const bansInForce = (db: Kysely<DB>, tunId: number) =>
  db.selectFrom("shield_bans").where("tun_id", "=", tunId).where("until", ">", nowIso()).where("lifted_at", "is", null);

async function viewOf(db: Kysely<DB>, t: TunnelKind): Promise<ShieldView> {
  const [row, bans] = await Promise.all([
    db.selectFrom("tunnel_shields").selectAll().where("tun_id", "=", t.tun_id).executeTakeFirst(),
    countRows(bansInForce(db, t.tun_id)),
  ]);
  return {
    ...(row ? settingsOf(row) : defaultsFor(t)),
    applies: applies(t),
    defaults: !row,
    bans,
    ban_cap: SHIELD_BAN_CAP,
  };
}

/** GET /user/tun/{tunid}/shield */
export async function getShield(ctx: AppContext, uid: number, tunId: number): Promise<ShieldView> {
  return viewOf(ctx.db, await ownTunnel(ctx.db, uid, tunId));
}

/** Each address once, in the customer's order, written as they typed it (trimmed). */
function uniqueList(list: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const text of list) {
    const net = parseIpNet(text);
    const key = net ? `${net.v6}/${net.words.join(".")}/${net.bits}` : text;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(text.trim());
  }
  return out;
}

/**
 * Saves the setting (a new version: every plugin process forgets the bans and counts it decided
 * for the tunnel) and announces the tunnel's change, so the decision caches and the node agents
 * reload it.
 */
async function saveShield(trx: Tx, uid: number, tunId: number, s: ShieldBody): Promise<void> {
  const values = {
    allow_list: JSON.stringify(uniqueList(s.allow)),
    deny_list: JSON.stringify(uniqueList(s.deny)),
    rule_enabled: s.rule_enabled ? 1 : 0,
    rule_conns: s.conns,
    rule_window_s: s.window_s,
    rule_ban_s: s.ban_s,
    updated_at: nowIso(),
  };
  await trx
    .insertInto("tunnel_shields")
    .values({ tun_id: tunId, uid, ...values, version: 1 })
    .onConflict((oc) => oc.column("tun_id").doUpdateSet({ ...values, version: sql`tunnel_shields.version + 1` }))
    .execute();
  trx.changes.emit("tunnel.changed", { tun_id: tunId, uid });
}

/** PUT /user/tun/{tunid}/shield */
export async function putShield(ctx: AppContext, uid: number, tunId: number, body: ShieldBody): Promise<ShieldView> {
  const t = await ownTunnel(ctx.db, uid, tunId);
  await transact(ctx, (trx) => saveShield(trx, uid, tunId, body));
  return viewOf(ctx.db, t);
}

/** GET /user/tun/{tunid}/shield/bans: a page of the bans in force, latest expiry first. */
export async function listBans(
  ctx: AppContext,
  uid: number,
  tunId: number,
  q: PageQuery,
): Promise<Paged<ShieldBanRow>> {
  await ownTunnel(ctx.db, uid, tunId);
  return pageOfQuery(
    q,
    bansInForce(ctx.db, tunId),
    (b) => b.select(["id", "ip", "reason", "created_at", "until"]).orderBy("until", "desc").orderBy("id", "desc"),
    (r) => r,
  );
}

/**
 * DELETE /user/tun/{tunid}/shield/bans/{banid}: lifts the ban (and any other ban of the address on
 * the tunnel: several processes may have banned it) and bumps the setting's version, so the
 * processes that decided a ban forget it too.
 */
export async function liftBan(ctx: AppContext, uid: number, tunId: number, banId: number): Promise<null> {
  const t = await ownTunnel(ctx.db, uid, tunId);
  await transact(ctx, async (trx) => {
    const ban = await trx
      .selectFrom("shield_bans")
      .select("ip")
      .where("id", "=", banId)
      .where("tun_id", "=", tunId)
      .where("uid", "=", uid)
      .where("lifted_at", "is", null)
      .executeTakeFirst();
    if (!ban) throw notFound("封禁记录");
    await trx
      .updateTable("shield_bans")
      .set({ lifted_at: nowIso() })
      .where("tun_id", "=", tunId)
      .where("ip", "=", ban.ip)
      .where("lifted_at", "is", null)
      .execute();
    const row = await trx.selectFrom("tunnel_shields").selectAll().where("tun_id", "=", tunId).executeTakeFirst();
    // Without a saved setting the port's defaults are saved as they stand: the version lives on the row.
    await saveShield(trx, uid, tunId, row ? settingsOf(row) : defaultsFor(t));
  });
  return null;
}

/**
 * Records bans the plugin decided (this process's write-behind writer, or a node agent's journal)
 * and announces each tunnel's change, so the other processes and the agents apply them too. Each
 * process caps its own bans, but several (API processes, agents) write: the bans in force are
 * counted under the user's lock and those past SHIELD_BAN_CAP per tunnel are dropped.
 */
export async function recordShieldBans(ctx: AppContext, bans: readonly ShieldBanDecision[]): Promise<void> {
  const byUser = new Map<number, ShieldBanDecision[]>();
  for (const b of bans) byUser.set(b.uid, [...(byUser.get(b.uid) ?? []), b]);
  for (const [uid, list] of byUser)
    await transact(ctx, async (trx) => {
      // an account erased since the ban was decided has nothing to ban for
      if (!(await trx.selectFrom("users").select("uid").where("uid", "=", uid).executeTakeFirst())) return;
      await lockUser(trx, uid);
      const tunIds = [...new Set(list.map((b) => b.tun_id))];
      const counted = await trx
        .selectFrom("shield_bans")
        .select(["tun_id", sql<number | string>`count(*)`.as("n")])
        .where("tun_id", "in", tunIds)
        .where("until", ">", nowIso())
        .where("lifted_at", "is", null)
        .groupBy("tun_id")
        .execute();
      const room = new Map(tunIds.map((id) => [id, SHIELD_BAN_CAP]));
      for (const c of counted) room.set(c.tun_id, SHIELD_BAN_CAP - Number(c.n));
      const kept = list.filter((b) => {
        const left = room.get(b.tun_id) ?? 0;
        room.set(b.tun_id, left - 1);
        return left > 0;
      });
      if (!kept.length) return;
      await trx
        .insertInto("shield_bans")
        .values(
          kept.map((b) => ({
            tun_id: b.tun_id,
            uid: b.uid,
            node_id: b.node_id,
            ip: b.ip.slice(0, 100),
            reason: b.reason.slice(0, 200),
            created_at: new Date(b.at).toISOString(),
            until: new Date(b.until).toISOString(),
            lifted_at: null,
          })),
        )
        .execute();
      for (const id of new Set(kept.map((b) => b.tun_id))) trx.changes.emit("tunnel.changed", { tun_id: id, uid });
    });
}

/** The erasure of an account (account-data.ts): its settings and the visitor addresses its bans recorded go. */
export async function eraseAccountShields(trx: Tx, uid: number): Promise<void> {
  await trx.deleteFrom("shield_bans").where("uid", "=", uid).execute();
  await trx.deleteFrom("tunnel_shields").where("uid", "=", uid).execute();
}
