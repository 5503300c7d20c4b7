import { AssistantApi, explainFrpcLog } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { assistantStatus, chat, deleteConversation, getConversation, listConversations } from "./assistant.service";

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
  defineRoute(app, ctx, AssistantApi.postUserAssistantChat, ({ user, body, reply }) =>
    chat(ctx, user.uid, body, reply),
  );
}
