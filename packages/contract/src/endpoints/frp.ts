import { endpoint } from "../endpoint";
import { type NodePollResult, PollNodeBody } from "../nodes";

/** The frp endpoints (see endpoint.ts). */
export const FrpApi = {
  postSuperNodePoll: endpoint<NodePollResult>()({
    method: "POST",
    url: "/super/node/poll",
    access: "manager",
    summary: "poll the node's dashboard now (立即检测)",
    body: PollNodeBody,
  }),
} as const;
