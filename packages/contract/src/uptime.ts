import { z } from "zod";

/*
 * Uptime (docs/uptime.md): per tunnel, 90 Shanghai days of uptime bars and the incidents longer
 * than two minutes, from its status changes and its node's health; an optional public status page
 * and SVG badge per tunnel; the provider's status page (every node's 90 days, maintenance windows).
 */

/** Days of history kept and shown. */
export const UPTIME_DAYS = 90;
/** An outage shorter than this is counted in the bars but listed as no incident. */
export const INCIDENT_MIN_MS = 2 * 60_000;
/** A day's bar colour: green at or above `green` %, amber at or above `amber` %, red below. */
export const UPTIME_LEVELS = { green: 99, amber: 95 } as const;

/** Why a tunnel was offline: client disconnected, its node down, locked by an operator, out of quota, turned off. */
export const UptimeCauses = ["client", "node_down", "locked", "quota", "disabled"] as const;
export type UptimeCause = (typeof UptimeCauses)[number];
export const UptimeCauseLabel: Record<UptimeCause, string> = {
  client: "客户端断开",
  node_down: "节点故障",
  locked: "隧道被锁定",
  quota: "流量用尽",
  disabled: "隧道已停用",
};

/** A day's colour by its uptime % (null: no data that day). */
export function uptimeLevel(pct: number | null): "green" | "amber" | "red" | "none" {
  if (pct === null) return "none";
  if (pct >= UPTIME_LEVELS.green) return "green";
  return pct >= UPTIME_LEVELS.amber ? "amber" : "red";
}

/** One Shanghai day's bar. */
export interface UptimeDay {
  /** YYYY-MM-DD (Asia/Shanghai) */
  day: string;
  /** % of the day's known time that was up, two decimals; null when nothing was known that day */
  pct: number | null;
  /** milliseconds down that day */
  down_ms: number;
}

/** An outage longer than two minutes. */
export interface UptimeIncident {
  start: string;
  /** null: still going on */
  end: string | null;
  duration_ms: number;
  cause: UptimeCause;
}

/** GET /user/tun/{tunid}/uptime */
export interface TunnelUptime {
  tun_id: number;
  /** up now (its status and its node's), null when nothing is known yet */
  online: boolean | null;
  /** % over the 90 days' known time, null when nothing is known */
  pct: number | null;
  /** oldest first, 90 days ending today */
  days: UptimeDay[];
  /** newest first */
  incidents: UptimeIncident[];
  /** the public status page: off until turned on; the slug stays once made */
  public_page: { enabled: boolean; slug: string | null };
}

/** PUT /user/tun/{tunid}/uptime/public */
export const UptimePublicBody = z.object({ enabled: z.boolean({ message: "请指定是否公开" }) });
export type UptimePublicBody = z.infer<typeof UptimePublicBody>;

/** /status/t/{slug}: a slug is 24 URL-safe characters. */
export const UptimeSlugParams = z.object({ slug: z.string().regex(/^[A-Za-z0-9_-]{24}$/, "状态页地址无效") });
export type UptimeSlugParams = z.infer<typeof UptimeSlugParams>;

/** GET /status/t/{slug}: what anyone may see of a tunnel (never its address, token or owner). */
export interface PublicTunnelStatus {
  name: string;
  online: boolean | null;
  pct: number | null;
  days: UptimeDay[];
  incidents: UptimeIncident[];
}

/** A maintenance window as the status page shows it. */
export interface MaintenanceView {
  id: number;
  title: string;
  starts_at: string;
  ends_at: string;
  nodes: { node_id: number; name: string }[];
  /** null: in force */
  cancelled_at: string | null;
}

/** One node on the provider status page. */
export interface NodeUptime {
  node_id: number;
  name: string;
  /** up now (its last health), null when nothing is known yet */
  online: boolean | null;
  /** in an announced maintenance window now */
  in_maintenance: boolean;
  pct: number | null;
  days: UptimeDay[];
}

/** GET /status */
export interface ProviderStatus {
  nodes: NodeUptime[];
  /** windows not ended yet, and those ended within the last 7 days; none cancelled */
  maintenance: MaintenanceView[];
}

const Iso = (what: string) =>
  z.iso.datetime({ offset: true, message: `${what}须为 ISO-8601 时间` }).transform((s) => new Date(s).toISOString());

const MaintenanceFields = {
  title: z.string().trim().min(1, "请输入维护标题").max(100, "维护标题最多 100 个字符"),
  starts_at: Iso("开始时间"),
  ends_at: Iso("结束时间"),
  node_ids: z
    .array(z.number().int().min(1), { message: "请选择节点" })
    .min(1, "请至少选择一个节点")
    .max(200)
    .transform((ids) => [...new Set(ids)]),
};

/** POST /super/maintenance */
export const CreateMaintenanceBody = z.object(MaintenanceFields);
export type CreateMaintenanceBody = z.infer<typeof CreateMaintenanceBody>;

/** PATCH /super/maintenance: the fields sent change. */
export const UpdateMaintenanceBody = z.object({
  id: z.number().int().min(1),
  title: MaintenanceFields.title.optional(),
  starts_at: MaintenanceFields.starts_at.optional(),
  ends_at: MaintenanceFields.ends_at.optional(),
  node_ids: MaintenanceFields.node_ids.optional(),
});
export type UpdateMaintenanceBody = z.infer<typeof UpdateMaintenanceBody>;

/** DELETE /super/maintenance: cancels (kept, shown as cancelled to operators). */
export const CancelMaintenanceBody = z.object({ id: z.number().int().min(1) });
export type CancelMaintenanceBody = z.infer<typeof CancelMaintenanceBody>;
