import { z } from "zod";
import { int } from "../answers";

/*
 * Answers of the node agent's calls. The customer record is @burrow/frp-decision's UserWire, which
 * the contract does not import (that package builds on this one): its top level is checked here,
 * its nested plan limits, tunnels and domains are that package's to define.
 */

export const AgentLookupAnswerSchema = z.strictObject({
  user: z
    .strictObject({
      uid: int(),
      active: z.boolean(),
      token: z.string(),
      limits: z.unknown().describe("PlanLimits of @burrow/frp-decision, null without a usable plan"),
      tunnels: z.array(z.unknown()).describe("TunnelWire of @burrow/frp-decision"),
      kicks: z.array(int()).describe("tunnels whose session is to be refused at its next heartbeat"),
      domains: z.array(z.unknown()).describe("DomainWire of @burrow/frp-decision"),
    })
    .nullable()
    .describe("UserWire of @burrow/frp-decision; null when no such customer (or the token does not prove it)"),
});

export const AgentEventsAnswerSchema = z.strictObject({
  acked: int().describe("the highest journal seq the console has applied, 0 when none"),
});
