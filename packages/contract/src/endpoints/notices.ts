import { pagedAnswer } from "../answers";
import { NoticeCountAnswer, NoticeSettingsAnswer, NoticeViewAnswer } from "../answers/notices";
import type { Paged } from "../codes";
import { endpoint } from "../endpoint";
import {
  NoticeEmailBody,
  NoticeEmailCodeBody,
  NoticeListQuery,
  NoticeParams,
  NoticePrefBody,
  type NoticeSettings,
  type NoticeView,
} from "../notices";

/**
 * The notification centre and each person's channels (docs/notices.md). Customers and staff alike:
 * operator events reach Managers through the same centre.
 */
export const NoticesApi = {
  getUserNotice: endpoint<Paged<NoticeView>>()({
    method: "GET",
    url: "/user/notice",
    access: "user",
    answer: pagedAnswer(NoticeViewAnswer),
    summary: "my notices, newest first (unread=1: unread only)",
    query: NoticeListQuery,
  }),
  getUserNoticeUnread: endpoint<{ count: number }>()({
    method: "GET",
    url: "/user/notice/unread",
    access: "user",
    answer: NoticeCountAnswer,
    summary: "how many of my notices are unread (the bell)",
  }),
  postUserNoticeIdRead: endpoint<NoticeView>()({
    method: "POST",
    url: "/user/notice/:id/read",
    access: "user",
    answer: NoticeViewAnswer,
    summary: "marks one of my notices read",
    params: NoticeParams,
  }),
  postUserNoticeReadAll: endpoint<{ count: number }>()({
    method: "POST",
    url: "/user/notice/readAll",
    access: "user",
    answer: NoticeCountAnswer,
    summary: "marks all my notices read; answers how many were unread",
  }),
  getUserNoticeSettings: endpoint<NoticeSettings>()({
    method: "GET",
    url: "/user/notice/settings",
    access: "user",
    answer: NoticeSettingsAnswer,
    summary: "my channels per event type, my notice e-mail, and which channels the server offers",
  }),
  putUserNoticeSettings: endpoint<NoticeSettings>()({
    method: "PUT",
    url: "/user/notice/settings",
    access: "user",
    answer: NoticeSettingsAnswer,
    summary: "sets the channels of one event type (站内 is always on; 短信 only for urgent ones)",
    body: NoticePrefBody,
  }),
  postUserNoticeEmail: endpoint<NoticeSettings>()({
    method: "POST",
    url: "/user/notice/email",
    access: "user",
    answer: NoticeSettingsAnswer,
    summary: "sets my notice e-mail and mails it a six-digit code (unverified until the code is entered)",
    body: NoticeEmailBody,
  }),
  postUserNoticeEmailVerify: endpoint<NoticeSettings>()({
    method: "POST",
    url: "/user/notice/email/verify",
    access: "user",
    answer: NoticeSettingsAnswer,
    summary: "verifies my notice e-mail with the mailed code",
    body: NoticeEmailCodeBody,
  }),
} as const;
