import { AgentsApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { agentHub, lookupUser } from "./agents.service";
import { nodeOf } from "./credential";
import { applyAgentEvents } from "./events";

/** The node agent's three calls (agent-protocol.md), each with the node's own credential. */
export function agentsRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, AgentsApi.getAgentStream, async ({ user, reply }) => {
    const nodeId = nodeOf(user);
    // NDJSON for as long as the agent stays: Fastify hands the socket over.
    reply.hijack();
    reply.raw.writeHead(200, {
      "content-type": "application/x-ndjson; charset=utf-8",
      "cache-control": "no-store",
      // Proxies in front of the console must pass lines on at once, not buffer the stream.
      "x-accel-buffering": "no",
      // The connection ends with the stream: nothing else is ever sent on it.
      connection: "close",
    });
    reply.raw.flushHeaders();
    await agentHub(ctx).open(nodeId, reply.raw);
    return reply;
  });
  defineRoute(app, ctx, AgentsApi.postAgentLookup, ({ user, body }) => lookupUser(ctx, nodeOf(user), body));
  defineRoute(app, ctx, AgentsApi.postAgentEvents, async ({ user, req }) => {
    const nodeId = nodeOf(user);
    await agentHub(ctx).contact(nodeId);
    return applyAgentEvents(ctx, nodeId, req.body);
  });
}
