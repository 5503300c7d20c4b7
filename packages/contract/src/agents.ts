import { z } from "zod";

/*
 * The node agent's calls to the console (docs/deploy.md; the message types are
 * @burrow/frp-decision's wire.ts, which the contract does not import: that package builds on this one).
 */

/** POST /agent/lookup: a customer the agent's copy has never seen. */
export const AgentLookupBody = z.object({
  uid: z.number().int().min(1).max(2_147_483_647),
  /** the frp access token the client presented: the console answers only a customer it proves (a node cannot harvest tokens) */
  token: z.string().min(1).max(128),
});
export type AgentLookupBody = z.infer<typeof AgentLookupBody>;

/** POST /agent/lookup's answer (UserWire of @burrow/frp-decision, null when no such customer). */
export interface AgentLookupAnswer {
  user: unknown;
}

/** POST /agent/events's answer: the highest seq of the journal the console has applied (0 when none). */
export interface AgentEventsAnswer {
  acked: number;
}
