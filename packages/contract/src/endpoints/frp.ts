import { z } from "zod";
import { NodePollResultAnswer } from "../answers/nodes";
import { endpoint } from "../endpoint";
import { type NodePollResult, PollNodeBody } from "../nodes";
import { TunIdParams } from "../tunnels";

/** The frp endpoints (see endpoint.ts). */
export const FrpApi = {
  postSuperNodePoll: endpoint<NodePollResult>()({
    method: "POST",
    url: "/super/node/poll",
    access: "manager",
    answer: NodePollResultAnswer,
    summary: "poll the node's dashboard now (立即检测)",
    body: PollNodeBody,
  }),
  postUserTunTunidFree: endpoint<null>()({
    method: "POST",
    url: "/user/tun/:tunid/free",
    access: "user",
    scope: "tunnels:write",
    answer: z.null(),
    summary: "强制下线: the session holding the tunnel is refused at its next heartbeat (429 past 5 per 10 min)",
    params: TunIdParams,
  }),
} as const;
