import { type AgentEventsAnswer, type AgentLookupAnswer, AgentLookupBody } from "../agents";
import { AgentEventsAnswerSchema, AgentLookupAnswerSchema } from "../answers/agents";
import { endpoint } from "../endpoint";

/**
 * The node agent's endpoints. Their credential is the node's own (`Bearer <node_id>.<secret>`, scope
 * "agent"), never a console session. The events body is validated by the server with the wire
 * schema of @burrow/frp-decision (EventsBodySchema): 400 naming the field.
 */
export const AgentsApi = {
  getAgentStream: endpoint<null>()({
    method: "GET",
    url: "/agent/stream",
    access: "user",
    scope: "agent",
    summary: "the node's decision state as NDJSON: a snapshot, then user/node/kick updates and a ping every 15 s",
    raw: "stream",
  }),
  postAgentLookup: endpoint<AgentLookupAnswer>()({
    method: "POST",
    url: "/agent/lookup",
    access: "user",
    scope: "agent",
    answer: AgentLookupAnswerSchema,
    summary: "one customer the agent's copy has never seen",
    body: AgentLookupBody,
  }),
  postAgentEvents: endpoint<AgentEventsAnswer>()({
    method: "POST",
    url: "/agent/events",
    access: "user",
    scope: "agent",
    answer: AgentEventsAnswerSchema,
    summary: "what the node learned (holds, releases, visitors, counters, grace), applied once each in seq order",
  }),
} as const;
