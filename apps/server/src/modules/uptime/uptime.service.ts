import {
  NodeStatus,
  type NodeUptime,
  type ProviderStatus,
  type PublicTunnelStatus,
  TunnelStatus,
  type TunnelUptime,
  type UptimeDay,
  type UptimeIncident,
} from "@burrow/contract";
import type { AppContext } from "../../context";
import { notFound, rateLimited, refused } from "../../shared/errors";
import { randomToken } from "../../shared/ids";
import { lockUser } from "../../shared/locks";
import { AppState } from "../../shared/module";
import { clientKey } from "../../shared/rate-limit";
import { transact } from "../../shared/tx";
import { selectNodes } from "../nodes/nodes.repository";
import { findOwnTunnel, findTunnel, type TunnelJoinedRow } from "../tunnels/tunnels.repository";
import { activeMaintenance } from "./maintenance";
import { dailyBars, incidentsOf, overlayNodes, type Segment, segmentsOf, uptimeWindow } from "./timeline";
import { changesSince } from "./uptime.repository";

/** What a tunnel's history reads as now. */
interface Report {
  online: boolean;
  pct: number | null;
  days: UptimeDay[];
  incidents: UptimeIncident[];
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The tunnel's segments with its nodes' downtime over them, from the window's opening state on. */
async function tunnelSegments(ctx: AppContext, tunId: number, now: Date): Promise<Segment[]> {
  const { from, to } = uptimeWindow(now);
  const own = segmentsOf((await changesSince(ctx.db, "tunnel", [tunId], iso(from))).get(tunId) ?? [], to);
  if (!own.length) return own;
  const nodeIds = [...new Set(own.map((s) => s.node_id))];
  const nodes = await changesSince(ctx.db, "node", nodeIds, iso(Math.min(from, own[0].start)));
  return overlayNodes(own, new Map(nodeIds.map((id) => [id, segmentsOf(nodes.get(id) ?? [], to)])));
}

/** Up now: connected, and its node up. */
const isOnline = (t: TunnelJoinedRow) => t.status === TunnelStatus.Connected && t.node_status === NodeStatus.Online;

async function tunnelReport(ctx: AppContext, t: TunnelJoinedRow, now: Date): Promise<Report> {
  const segments = await tunnelSegments(ctx, t.tun_id, now);
  const { days, pct } = dailyBars(segments, now);
  return { online: isOnline(t), pct, days, incidents: incidentsOf(segments, now, !isOnline(t)) };
}

/** GET /user/tun/{tunid}/uptime: another customer's tunnel does not exist (404). */
export async function tunnelUptime(ctx: AppContext, uid: number, tunId: number): Promise<TunnelUptime> {
  const t = await findOwnTunnel(ctx.db, uid, tunId);
  if (!t) throw notFound("隧道");
  const page = await ctx.db
    .selectFrom("uptime_pages")
    .select(["slug", "enabled"])
    .where("tun_id", "=", tunId)
    .executeTakeFirst();
  const report = await tunnelReport(ctx, t, new Date());
  return {
    tun_id: tunId,
    ...report,
    public_page: { enabled: page?.enabled === 1, slug: page?.slug ?? null },
  };
}

/**
 * PUT /user/tun/{tunid}/uptime/public: on makes the slug the first time (18 random bytes, 24
 * URL-safe characters) and keeps it after; off leaves the slug but its page and badge 404.
 */
export async function setPublicPage(
  ctx: AppContext,
  uid: number,
  tunId: number,
  enabled: boolean,
): Promise<TunnelUptime> {
  if (!(await findOwnTunnel(ctx.db, uid, tunId))) throw notFound("隧道");
  const at = new Date().toISOString();
  await transact(ctx, async (trx) => {
    // Turning on is publishing: refused while a module holds the account back (leaving's
    // cool-off), asked under the customer's lock as the deletion request takes it. Off always works.
    await lockUser(trx, uid);
    if (enabled)
      for (const guard of ctx.publishGuards) {
        const why = await guard(trx, uid);
        if (why) throw refused(why);
      }
    await trx
      .insertInto("uptime_pages")
      .values({ tun_id: tunId, uid, slug: randomToken(18), enabled: enabled ? 1 : 0, updated_at: at })
      .onConflict((oc) => oc.column("tun_id").doUpdateSet({ enabled: enabled ? 1 : 0, updated_at: at }))
      .execute();
  });
  return tunnelUptime(ctx, uid, tunId);
}

/** Public pages and badges: per client address, and each slug's answer kept a little while. */
const PUBLIC_PER_MINUTE = 60;
const PUBLIC_CACHE_MS = 30_000;
const PUBLIC_CACHE_MAX = 10_000;

/** The public pages (a tunnel's, its badge, the provider's) share one budget per client address. */
async function limitPublic(ctx: AppContext, ip: string): Promise<void> {
  const limit = await ctx.limiter.hit(`uptime:public:${clientKey(ip)}`, PUBLIC_PER_MINUTE, 60);
  if (!limit.allowed) throw rateLimited(limit.retryAfterSec);
}

export const publicCache = new AppState(
  "uptime.public",
  () => new Map<string, { until: number; status: PublicTunnelStatus }>(),
);

/**
 * A tunnel's public status by its slug, for the page and the badge: 404 unless its page is on and
 * the tunnel live (checked on every call: turning it off takes effect at once); the report itself
 * is kept 30 s per slug. Only the tunnel's name and its uptime leave here: never its address,
 * ports, token, node or owner.
 */
export async function publicTunnelStatus(ctx: AppContext, slug: string, ip: string): Promise<PublicTunnelStatus> {
  await limitPublic(ctx, ip);
  const page = await ctx.db
    .selectFrom("uptime_pages")
    .select(["tun_id", "uid"])
    .where("slug", "=", slug)
    .where("enabled", "=", 1)
    .executeTakeFirst();
  const t = page && (await findTunnel(ctx.db, page.tun_id));
  if (!page || !t || t.uid !== page.uid || t.status === TunnelStatus.Deleted) throw notFound("状态页");
  const cache = publicCache.of(ctx);
  const hit = cache.get(slug);
  if (hit && hit.until > Date.now()) return hit.status;
  const r = await tunnelReport(ctx, t, new Date());
  const status: PublicTunnelStatus = {
    name: t.tun_name,
    online: r.online,
    pct: r.pct,
    days: r.days,
    incidents: r.incidents,
  };
  if (cache.size >= PUBLIC_CACHE_MAX) cache.clear();
  cache.set(slug, { until: Date.now() + PUBLIC_CACHE_MS, status });
  return status;
}

/** GET /status: the nodes on the shelf, their state and 90 days, and the maintenance announced. */
export async function providerStatus(ctx: AppContext, ip: string): Promise<ProviderStatus> {
  await limitPublic(ctx, ip);
  const now = new Date();
  const { from, to } = uptimeWindow(now);
  const nodes = await selectNodes(ctx.db, { tunnelCount: false })
    .where("nodes.status", "<>", NodeStatus.OffShelf)
    .orderBy("nodes.sort")
    .orderBy("nodes.node_id")
    .execute();
  const changes = await changesSince(
    ctx.db,
    "node",
    nodes.map((n) => n.node_id),
    iso(from),
  );
  const maintenance = await activeMaintenance(ctx, now);
  const inMaintenance = new Set(
    maintenance
      .filter((m) => m.starts_at <= now.toISOString() && m.ends_at > now.toISOString())
      .flatMap((m) => m.nodes.map((n) => n.node_id)),
  );
  const rows: NodeUptime[] = nodes.map((n) => {
    const { days, pct } = dailyBars(segmentsOf(changes.get(n.node_id) ?? [], to), now);
    return {
      node_id: n.node_id,
      name: n.name,
      online: n.status === NodeStatus.Online,
      in_maintenance: inMaintenance.has(n.node_id),
      pct,
      days,
    };
  });
  return { nodes: rows, maintenance };
}
