import type { Generated } from "kysely";

/** One status change of a tunnel or a node (migration 2026-11-28T09-30). */
export interface UptimeChangeTable {
  id: Generated<number>;
  subject: "tunnel" | "node";
  subject_id: number;
  /** the tunnel's node when it changed; the node itself for a node */
  node_id: number;
  /** 1 up, 0 down */
  up: number;
  /** UptimeCause of a down change; null when up */
  cause: string | null;
  at: string;
  /** the domain event it was copied from (unique: handled at least once) */
  event_id: number;
}

/** A tunnel's public status page (off until its owner turns it on). */
export interface UptimePageTable {
  tun_id: number;
  uid: number;
  slug: string;
  enabled: number;
  updated_at: string;
}

/** A maintenance window announced by an operator. */
export interface UptimeMaintenanceTable {
  id: Generated<number>;
  title: string;
  starts_at: string;
  ends_at: string;
  /** JSON array of node ids */
  node_ids: string;
  cancelled_at: string | null;
  created_by: number;
  created_at: string;
  updated_at: string;
}

/** Owned by the uptime module. */
export interface UptimeTables {
  uptime_changes: UptimeChangeTable;
  uptime_pages: UptimePageTable;
  uptime_maintenance: UptimeMaintenanceTable;
}
