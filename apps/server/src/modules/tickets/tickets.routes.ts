import { TicketsApi } from "@burrow/contract";
import multipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { sendDownload } from "../../http/download";
import { defineRoute } from "../../http/route";
import { uploadOf } from "../../http/upload";
import { appealRoutes } from "./appeal.routes";
import { attachmentFile, saveAttachment } from "./attachments";
import { getTicket, listTickets, staffClose, staffReply } from "./staff";
import {
  closeMyTicket,
  createTicket,
  getMyTicket,
  listMyTickets,
  replyMyTicket,
  unlockFromTicket,
  unreadCount,
} from "./tickets.service";

/** Support tickets and tunnel appeals: customers under /user/ticket, staff under /super/ticket. */
export function ticketsRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, TicketsApi.getUserTicket, ({ user, query }) => listMyTickets(ctx, user.uid, query));
  defineRoute(app, ctx, TicketsApi.postUserTicket, ({ user, body }) => createTicket(ctx, user.uid, body));
  defineRoute(app, ctx, TicketsApi.getUserTicketUnread, ({ user }) => unreadCount(ctx, user.uid));
  // Multipart only in this scope (see users.routes.ts).
  void app.register(async (scope) => {
    await scope.register(multipart);
    defineRoute(scope, ctx, TicketsApi.postUserTicketAttachment, ({ user, req }) =>
      saveAttachment(ctx, uploadOf(req), user.uid),
    );
  });
  defineRoute(app, ctx, TicketsApi.getUserTicketAttachment, async ({ user, params, reply }) =>
    sendDownload(reply, await attachmentFile(ctx, user, params.id)),
  );
  defineRoute(app, ctx, TicketsApi.getUserTicketDetail, ({ user, params }) =>
    getMyTicket(ctx, user.uid, params.ticket_id),
  );
  defineRoute(app, ctx, TicketsApi.postUserTicketReply, ({ user, params, body }) =>
    replyMyTicket(ctx, user.uid, params.ticket_id, body),
  );
  defineRoute(app, ctx, TicketsApi.postUserTicketClose, ({ user, params }) =>
    closeMyTicket(ctx, user.uid, params.ticket_id),
  );
  appealRoutes(app, ctx);
  defineRoute(app, ctx, TicketsApi.getSuperTicket, ({ query }) => listTickets(ctx, query));
  defineRoute(app, ctx, TicketsApi.getSuperTicketDetail, ({ params }) => getTicket(ctx, params.ticket_id));
  defineRoute(app, ctx, TicketsApi.postSuperTicketReply, ({ operator, params, body }) =>
    staffReply(ctx, operator, params.ticket_id, body),
  );
  defineRoute(app, ctx, TicketsApi.postSuperTicketClose, ({ operator, params, body }) =>
    staffClose(ctx, operator, params.ticket_id, body.content),
  );
  defineRoute(app, ctx, TicketsApi.postSuperTicketUnlock, ({ operator, params, body }) =>
    unlockFromTicket(ctx, operator, params.ticket_id, body.content),
  );
}
