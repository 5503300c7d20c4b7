import type { AgentLookupAnswer } from "@burrow/contract";
import { type LookupAnswer, userToWire } from "@burrow/frp-decision";
import type { AppContext } from "../../context";
import { AppState } from "../../shared/module";
import { frpRuntime } from "../frp/frp.routes";
import { AgentHub } from "./hub";

/** The node agents' streams of this app (created when the app is built; the agents manifest lists it). */
export const agentsState = new AppState<AgentHub>("agents", (ctx) => new AgentHub(ctx));

export const agentHub = (ctx: AppContext): AgentHub => agentsState.of(ctx);

/**
 * POST /api/agent/lookup: a customer the agent's copy has never seen, from the decision cache
 * (the entry the console's own plugin decides with). From now on that customer's changes reach
 * the node's open streams, so a lock made later reaches the agent too.
 */
export async function lookupUser(ctx: AppContext, nodeId: number, uid: number): Promise<AgentLookupAnswer> {
  const hub = agentHub(ctx);
  await hub.contact(nodeId);
  hub.cover(nodeId, uid);
  const user = await frpRuntime(ctx).cache.user(uid);
  const answer: LookupAnswer = { user: user ? userToWire(user) : null };
  return answer;
}
