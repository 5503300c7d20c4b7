import { z } from "zod";
import { ConnRowAnswer, int, pagedAnswer, TunnelTrafficChartAnswer, time } from "../answers";

/* Answers of the traffic endpoints beyond the ones in answers.ts (which API tokens reach). */

/** A day's bytes (answers.ts keeps it private; its chart's element is the same schema). */
const TrafficDayAnswer = TunnelTrafficChartAnswer.shape.days.element;

const LiveProxyRowAnswer = z.strictObject({
  node_id: int(),
  node_name: z.string(),
  proxy_name: z.string(),
  tun_id: int().nullable().describe("null: a proxy Burrow does not know"),
  tun_name: z.string().nullable(),
  uid: int().nullable(),
  online: z.boolean(),
  cur_conns: int(),
  today_in: int().describe("bytes today on the node"),
  today_out: int(),
  updated_at: time(),
});

export const ConnOverviewAnswer = pagedAnswer(ConnRowAnswer).extend({ live: z.array(LiveProxyRowAnswer) });

export const FlowAnswer = z.strictObject({
  start_date: z.string().describe("YYYY-MM-DD, Asia/Shanghai"),
  end_date: z.string(),
  total_in: int().describe("bytes"),
  total_out: int(),
  days: z.array(TrafficDayAnswer),
  nodes: z.array(z.strictObject({ node_id: int(), node_name: z.string(), traffic_in: int(), traffic_out: int() })),
  users: pagedAnswer(z.strictObject({ uid: int(), phone: z.string(), traffic_in: int(), traffic_out: int() })).describe(
    "users by total traffic, heaviest first",
  ),
});
