import type { AssistantStreamEvent } from "@burrow/contract";
import { AssistantApi, explainFrpcLog } from "@burrow/contract";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import {
  assistantStatus,
  type ChatSink,
  chat,
  deleteConversation,
  getConversation,
  listConversations,
} from "./assistant.service";

/** A chat's events as Server-Sent Events on the reply, which Fastify no longer answers itself. */
function sseSink(reply: FastifyReply): ChatSink {
  const raw = reply.raw;
  return {
    open() {
      const abort = new AbortController();
      reply.hijack();
      raw.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache, no-transform",
        "x-accel-buffering": "no",
      });
      raw.on("close", () => {
        if (!raw.writableFinished) abort.abort();
      });
      return abort.signal;
    },
    send(ev: AssistantStreamEvent) {
      if (!raw.destroyed) raw.write(`event: ${ev.type}\ndata: ${JSON.stringify(ev)}\n\n`);
    },
    end() {
      raw.end();
    },
  };
}

/** The frpc assistant (/aipage): a customer's own conversations, the offline log reading, the streamed chat. */
export function assistantRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, AssistantApi.getUserAssistantStatus, ({ user }) => assistantStatus(ctx, user.uid));
  defineRoute(app, ctx, AssistantApi.getUserAssistantConversation, ({ user }) => listConversations(ctx, user.uid));
  defineRoute(app, ctx, AssistantApi.getUserAssistantConversationDetail, ({ user, params }) =>
    getConversation(ctx, user.uid, params.id),
  );
  defineRoute(app, ctx, AssistantApi.deleteUserAssistantConversation, ({ user, params }) =>
    deleteConversation(ctx, user.uid, params.id),
  );
  defineRoute(app, ctx, AssistantApi.postUserAssistantExplain, ({ body }) => explainFrpcLog(body.text));
  defineRoute(app, ctx, AssistantApi.postUserAssistantChat, async ({ user, body, reply }) => {
    await chat(ctx, user.uid, body, sseSink(reply));
    return reply;
  });
}
