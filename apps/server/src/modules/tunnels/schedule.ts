/**
 * 定时开放 (docs/tunnel-schedules.md): a customer opens a tunnel for a while, until an instant, or
 * in weekly windows. Stored on the tunnel (tunnels.schedule); the frp decision reads it from the
 * decision cache and the agents' stream (TunnelEntry.schedule) and decides with the clock of each
 * call, so nothing has to run when a window opens or closes.
 */
import { type TunnelSchedule, type TunnelScheduleBody, TunnelStatus, type TunnelView } from "@burrow/contract";
import type { AppContext } from "../../context";
import { notFound, refused } from "../../shared/errors";
import { nowIso } from "../../shared/time";
import { type Tx, transact } from "../../shared/tx";
import { presentTunnel } from "./tunnels.presenter";
import { findOwnTunnel, tunnelState } from "./tunnels.repository";

const MINUTE_MS = 60_000;

/** What a valid body stores: "open for" becomes an end instant counted from now. */
function scheduleOf(body: TunnelScheduleBody, now: number): TunnelSchedule {
  if (body.mode === "for")
    return { kind: "until", until: new Date(now + (body.minutes ?? 0) * MINUTE_MS).toISOString() };
  if (body.mode === "until") return { kind: "until", until: new Date(body.until as string).toISOString() };
  return {
    kind: "weekly",
    windows: (body.windows ?? []).map((w) => ({ day: w.day, start: w.start, end: w.end })),
  };
}

/**
 * Writes a tunnel's schedule (null: always open) unless it was deleted or locked meanwhile;
 * announces it so every decision cache and node agent reloads the tunnel. False when nothing changed.
 */
export async function writeTunnelSchedule(
  trx: Tx,
  uid: number,
  tunId: number,
  schedule: TunnelSchedule | null,
): Promise<boolean> {
  const r = await trx
    .updateTable("tunnels")
    .set({ schedule: schedule ? JSON.stringify(schedule) : null, updated_at: nowIso() })
    .where("tun_id", "=", tunId)
    .where("uid", "=", uid)
    .where("status", "not in", [TunnelStatus.Deleted, TunnelStatus.Locked])
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) return false;
  trx.changes.emit("tunnel.changed", { tun_id: tunId, uid });
  return true;
}

async function setSchedule(
  ctx: AppContext,
  uid: number,
  tunId: number,
  schedule: TunnelSchedule | null,
): Promise<TunnelView> {
  const cur = await findOwnTunnel(ctx.db, uid, tunId);
  if (!cur) throw notFound("隧道");
  const written = await transact(ctx, (trx) => writeTunnelSchedule(trx, uid, tunId, schedule));
  if (!written) {
    // Locked by an operator (before or meanwhile), or deleted meanwhile: as an edit would be.
    const state = await tunnelState(ctx.db, tunId);
    if (state?.status === TunnelStatus.Locked) throw refused(`隧道已被锁定：${state.banned_reason ?? ""}`.trim());
    throw notFound("隧道");
  }
  const row = await findOwnTunnel(ctx.db, uid, tunId);
  if (!row) throw notFound("隧道");
  return presentTunnel(row);
}

/** PUT /user/tun/:tunid/schedule (the body is checked by its schema: windows, the 7 days). */
export function putTunnelSchedule(
  ctx: AppContext,
  uid: number,
  tunId: number,
  body: TunnelScheduleBody,
): Promise<TunnelView> {
  return setSchedule(ctx, uid, tunId, scheduleOf(body, Date.now()));
}

/** DELETE /user/tun/:tunid/schedule: always open again. */
export function deleteTunnelSchedule(ctx: AppContext, uid: number, tunId: number): Promise<TunnelView> {
  return setSchedule(ctx, uid, tunId, null);
}
