import { ReachReportAnswer } from "../answers/reach";
import { endpoint } from "../endpoint";
import type { ReachReport } from "../reach";
import { TunIdParams } from "../tunnels";

/** 外网检测 (docs/reach.md). */
export const ReachApi = {
  postUserTunTunidReach: endpoint<ReachReport>()({
    method: "POST",
    url: "/user/tun/:tunid/reach",
    access: "user",
    // write, not read: a check spends the customer's hourly quota and makes outbound connections
    scope: "tunnels:write",
    answer: ReachReportAnswer,
    summary:
      "外网检测: DNS of the tunnel's names, a TCP connect to its node port, HTTP status/title/certificate, a verdict (429 past 10 an hour)",
    params: TunIdParams,
  }),
} as const;
