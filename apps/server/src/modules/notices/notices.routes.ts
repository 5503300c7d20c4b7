import { NoticesApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import {
  listNotices,
  markAllRead,
  markRead,
  noticeSettings,
  setNoticeEmail,
  setNoticePref,
  unreadCount,
  verifyNoticeEmail,
} from "./notices.service";

/** The notification centre and each person's channels (docs/notices.md). */
export function noticesRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, NoticesApi.getUserNotice, ({ user, query }) => listNotices(ctx, user.uid, query));
  defineRoute(app, ctx, NoticesApi.getUserNoticeUnread, ({ user }) => unreadCount(ctx, user.uid));
  defineRoute(app, ctx, NoticesApi.postUserNoticeIdRead, ({ user, params }) => markRead(ctx, user.uid, params.id));
  defineRoute(app, ctx, NoticesApi.postUserNoticeReadAll, ({ user }) => markAllRead(ctx, user.uid));
  defineRoute(app, ctx, NoticesApi.getUserNoticeSettings, ({ user }) => noticeSettings(ctx, user.uid));
  defineRoute(app, ctx, NoticesApi.putUserNoticeSettings, ({ user, body }) => setNoticePref(ctx, user.uid, body));
  defineRoute(app, ctx, NoticesApi.postUserNoticeEmail, ({ user, body }) => setNoticeEmail(ctx, user.uid, body));
  defineRoute(app, ctx, NoticesApi.postUserNoticeEmailVerify, ({ user, body }) =>
    verifyNoticeEmail(ctx, user.uid, body.code),
  );
}
