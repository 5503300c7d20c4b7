import { MASKED_PASSWORD, TunnelStatus } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import { nowIso } from "../../shared/time";
import type { Tx } from "../../shared/tx";
import { eraseAccountShields } from "./shield";
import { tunnelAddon, tunnelCustomDomains } from "./tunnels.presenter";
import { markDeleted } from "./tunnels.repository";

/* The tunnels module's part of a customer's data export and of an account's deletion (docs/leaving.md). */

/** The customer's tunnels (deleted ones too), for the export: the HTTP password masked. */
export async function tunnelsDataOf(db: Kysely<DB>, uid: number) {
  const rows = await db.selectFrom("tunnels").selectAll().where("uid", "=", uid).orderBy("tun_id").execute();
  // run_id and stale_closes are frp's session bookkeeping, not the customer's data
  return rows.map(({ run_id: _run, stale_closes: _stale, ...r }) => {
    const addon = tunnelAddon(r);
    return {
      ...r,
      enabled: r.enabled === 1,
      custom_domains: tunnelCustomDomains(r),
      addon: addon.http_password ? { ...addon, http_password: MASKED_PASSWORD } : addon,
    };
  });
}

/**
 * Stops every enabled tunnel of the account (a deletion request): disabled as the customer's own
 * switch does, announced per tunnel so the frp decision cache refuses the tunnel's next heartbeat
 * and frps drops a connected one, as after an operator's lock. Returns the tun_ids it disabled.
 */
export async function stopAccountTunnels(trx: Tx, uid: number): Promise<number[]> {
  const rows = await trx
    .updateTable("tunnels")
    .set({ enabled: 0, updated_at: nowIso() })
    .where("uid", "=", uid)
    .where("enabled", "=", 1)
    .where("status", "!=", TunnelStatus.Deleted)
    .returning("tun_id")
    .execute();
  for (const r of rows) trx.changes.emit("tunnel.changed", { tun_id: r.tun_id, uid });
  return rows.map((r) => r.tun_id).sort((a, b) => a - b);
}

/** Enables again the tunnels a cancelled deletion request stopped (those still the account's and not deleted). */
export async function restartAccountTunnels(trx: Tx, uid: number, tunIds: number[]): Promise<void> {
  if (!tunIds.length) return;
  const rows = await trx
    .updateTable("tunnels")
    .set({ enabled: 1, updated_at: nowIso() })
    .where("uid", "=", uid)
    .where("tun_id", "in", tunIds)
    .where("status", "!=", TunnelStatus.Deleted)
    .returning("tun_id")
    .execute();
  for (const r of rows) trx.changes.emit("tunnel.changed", { tun_id: r.tun_id, uid });
}

/**
 * The erasure: every tunnel of the account is deleted (its traffic history stays, by tun_id and
 * the pseudonymous uid), and the visitor addresses recorded on its connections and 访客防护 go.
 */
export async function eraseAccountTunnels(trx: Tx, uid: number): Promise<void> {
  const live = await trx
    .selectFrom("tunnels")
    .select("tun_id")
    .where("uid", "=", uid)
    .where("status", "!=", TunnelStatus.Deleted)
    .orderBy("tun_id")
    .execute();
  for (const t of live) await markDeleted(trx, t.tun_id);
  await trx.deleteFrom("tunnel_conns").where("uid", "=", uid).execute();
  await eraseAccountShields(trx, uid);
}
