import { z } from "zod";
import { int, time } from "../answers";
import { TunnelProtocols } from "../enums";
import { ReachVerdicts } from "../reach";

/* Answers of the reach endpoints (外网检测). */

const ReachCertAnswer = z.strictObject({
  subject: z.string(),
  issuer: z.string(),
  valid_to: time(),
  days_left: int(),
  trusted: z.boolean(),
  problem: z.string().nullable(),
});

export const ReachReportAnswer = z.strictObject({
  tun_id: int(),
  protocol: z.enum(TunnelProtocols),
  checked_at: time(),
  duration_ms: int(),
  verdict: z.enum(ReachVerdicts),
  summary: z.string(),
  problems: z.array(z.string()),
  node: z.strictObject({ host: z.string(), addresses: z.array(z.string()) }),
  dns: z.array(
    z.strictObject({
      name: z.string(),
      addresses: z.array(z.string()),
      cname: z.string().nullable(),
      ok: z.boolean(),
      problem: z.string().nullable(),
      fix: z.strictObject({ type: z.enum(["TXT", "CNAME", "A"]), host: z.string(), value: z.string() }).nullable(),
    }),
  ),
  connect: z
    .strictObject({
      host: z.string(),
      address: z.string().nullable(),
      port: int(),
      ok: z.boolean(),
      ms: int().nullable(),
      detail: z.string(),
    })
    .nullable(),
  http: z.array(
    z.strictObject({
      url: z.string(),
      status: int().nullable(),
      title: z.string().nullable(),
      detail: z.string(),
      cert: ReachCertAnswer.nullable(),
    }),
  ),
  remaining: int().describe("checks left in the current hour"),
});
