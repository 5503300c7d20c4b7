import { type NoticeEmailBody, type NoticePrefBody, NoticesApi } from "@burrow/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";

export const noticesKeys = {
  all: ["notices"] as const,
  list: (page: number, unread: boolean) => ["notices", "list", page, unread] as const,
  unread: () => ["notices", "unread"] as const,
  settings: () => ["notices", "settings"] as const,
};

/** GET /user/notice: newest first. */
export const noticesQuery = (page: number, unread: boolean) =>
  queryOptions({
    queryKey: noticesKeys.list(page, unread),
    queryFn: ({ signal }) =>
      api.call(NoticesApi.getUserNotice, { query: { page, size: 10, ...(unread && { unread: "1" }) } }, { signal }),
  });

/** GET /user/notice/unread: the bell's count, refreshed every minute. */
export const unreadNoticesQuery = () =>
  queryOptions({
    queryKey: noticesKeys.unread(),
    queryFn: ({ signal }) => api.call(NoticesApi.getUserNoticeUnread, {}, { signal }),
    refetchInterval: 60_000,
    staleTime: 10_000,
  });

/** GET /user/notice/settings */
export const noticeSettingsQuery = () =>
  queryOptions({
    queryKey: noticesKeys.settings(),
    queryFn: ({ signal }) => api.call(NoticesApi.getUserNoticeSettings, {}, { signal }),
  });

export const markNoticeRead = (id: number) => api.call(NoticesApi.postUserNoticeIdRead, { params: { id } });
export const markAllNoticesRead = () => api.call(NoticesApi.postUserNoticeReadAll, {});
export const saveNoticePref = (body: NoticePrefBody) => api.call(NoticesApi.putUserNoticeSettings, { body });
export const setNoticeEmail = (body: NoticeEmailBody) => api.call(NoticesApi.postUserNoticeEmail, { body });
export const verifyNoticeEmail = (code: string) => api.call(NoticesApi.postUserNoticeEmailVerify, { body: { code } });
