import { z } from "zod";
import { int, time } from "../answers";
import { UptimeCauses } from "../uptime";

/* Answers of the uptime endpoints (a tunnel's uptime, public status pages, maintenance windows). */

const PctAnswer = z.number().nullable().describe("% up over the known time, two decimals; null when nothing is known");

const UptimeDayAnswer = z.strictObject({
  day: z.string().describe("YYYY-MM-DD, Asia/Shanghai"),
  pct: PctAnswer,
  down_ms: int(),
});

const UptimeIncidentAnswer = z.strictObject({
  start: time(),
  end: time().nullable().describe("null: still going on"),
  duration_ms: int(),
  cause: z.enum(UptimeCauses),
});

const OnlineAnswer = z.boolean().nullable().describe("up now; null when nothing is known yet");

export const PublicTunnelStatusAnswer = z.strictObject({
  name: z.string(),
  online: OnlineAnswer,
  pct: PctAnswer,
  days: z.array(UptimeDayAnswer).describe("oldest first, 90 days ending today"),
  incidents: z.array(UptimeIncidentAnswer).describe("newest first"),
});

export const TunnelUptimeAnswer = PublicTunnelStatusAnswer.omit({ name: true }).extend({
  tun_id: int(),
  public_page: z.strictObject({ enabled: z.boolean(), slug: z.string().nullable() }),
});

export const MaintenanceViewAnswer = z.strictObject({
  id: int(),
  title: z.string(),
  starts_at: time(),
  ends_at: time(),
  nodes: z.array(z.strictObject({ node_id: int(), name: z.string() })),
  cancelled_at: time().nullable().describe("null: in force"),
});

export const ProviderStatusAnswer = z.strictObject({
  nodes: z.array(
    z.strictObject({
      node_id: int(),
      name: z.string(),
      online: OnlineAnswer,
      in_maintenance: z.boolean(),
      pct: PctAnswer,
      days: z.array(UptimeDayAnswer),
    }),
  ),
  maintenance: z.array(MaintenanceViewAnswer),
});
