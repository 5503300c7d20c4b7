import type { AgentLookupAnswer, AgentLookupBody } from "@burrow/contract";
import { type LookupAnswer, secretEquals, userToWire } from "@burrow/frp-decision";
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
 * the node's open streams, so a lock made later reaches the agent too. Only for the token the
 * client presented: a node (or whoever holds its secret) learns no customer it has not been shown
 * the credentials of, so it cannot collect every customer's frp token by counting uids.
 */
export async function lookupUser(
  ctx: AppContext,
  nodeId: number,
  { uid, token }: AgentLookupBody,
): Promise<AgentLookupAnswer> {
  const hub = agentHub(ctx);
  await hub.contact(nodeId);
  const user = await frpRuntime(ctx).cache.user(uid);
  if (!user || !secretEquals(token, user.token)) return { user: null } satisfies LookupAnswer;
  hub.cover(nodeId, uid);
  return { user: userToWire(user) } satisfies LookupAnswer;
}
