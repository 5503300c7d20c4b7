/** 定时开放 as a tunnel's views show it (the presenter's part of schedule.ts). */
import type { TunnelSchedule } from "@burrow/contract";
import { scheduleNote } from "@burrow/frp-decision";
import { parseJson } from "../../shared/json";
import type { TunnelRow } from "./tunnels.table";

/** A tunnel's stored schedule, null when it is always open. */
export const tunnelSchedule = (t: Pick<TunnelRow, "schedule">): TunnelSchedule | null =>
  parseJson<TunnelSchedule | null>(t.schedule, null);

/** The list's 定时开放 fields of a tunnel row, at `now`. */
export function presentSchedule(
  t: Pick<TunnelRow, "schedule">,
  now = Date.now(),
): { schedule: TunnelSchedule | null; schedule_note: string | null } {
  const schedule = tunnelSchedule(t);
  return { schedule, schedule_note: schedule ? scheduleNote(schedule, now) : null };
}
