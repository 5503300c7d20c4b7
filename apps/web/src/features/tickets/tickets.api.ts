import type {
  AdminTicketListQuery,
  AdminTicketReplyBody,
  CreateTicketBody,
  TicketListQuery,
  TicketReplyBody,
} from "@burrow/contract";
import { TicketsApi } from "@burrow/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";
import { pagedListQuery } from "@/lib/table-query";

export type TicketFilters = Partial<Omit<TicketListQuery, "page" | "size">> & { page: number; size: number };
export type AdminTicketFilters = Partial<Omit<AdminTicketListQuery, "page" | "size">> & { page: number; size: number };

export const ticketsKeys = {
  all: ["tickets"] as const,
  list: (f: TicketFilters) => [...ticketsKeys.all, "list", f] as const,
  detail: (id: number) => [...ticketsKeys.all, "detail", id] as const,
  unread: () => [...ticketsKeys.all, "unread"] as const,
  admin: () => [...ticketsKeys.all, "admin"] as const,
  adminList: (f: AdminTicketFilters) => [...ticketsKeys.admin(), "list", f] as const,
  adminDetail: (id: number) => [...ticketsKeys.admin(), "detail", id] as const,
  file: (id: number) => [...ticketsKeys.all, "file", id] as const,
};

/** GET /user/ticket */
export const myTicketsQuery = (filters: TicketFilters) =>
  pagedListQuery(ticketsKeys.list(filters), TicketsApi.getUserTicket, filters);

/** GET /user/ticket/:ticket_id (marks staff replies read) */
export const myTicketQuery = (id: number) =>
  queryOptions({
    queryKey: ticketsKeys.detail(id),
    queryFn: ({ signal }) => api.call(TicketsApi.getUserTicketDetail, { params: { ticket_id: id } }, { signal }),
  });

/** GET /user/ticket/unread: the menu badge and the dashboard card; refreshed every minute. */
export const unreadTicketsQuery = () =>
  queryOptions({
    queryKey: ticketsKeys.unread(),
    queryFn: ({ signal }) => api.call(TicketsApi.getUserTicketUnread, {}, { signal }),
    refetchInterval: 60_000,
    staleTime: 10_000,
  });

/** GET /super/ticket */
export const adminTicketsQuery = (filters: AdminTicketFilters) =>
  pagedListQuery(ticketsKeys.adminList(filters), TicketsApi.getSuperTicket, filters);

/** GET /super/ticket/:ticket_id */
export const adminTicketQuery = (id: number) =>
  queryOptions({
    queryKey: ticketsKeys.adminDetail(id),
    queryFn: ({ signal }) => api.call(TicketsApi.getSuperTicketDetail, { params: { ticket_id: id } }, { signal }),
  });

/** An attachment's image as a blob (the call needs the token, so an <img src> cannot fetch it). */
export const attachmentQuery = (id: number) =>
  queryOptions({
    queryKey: ticketsKeys.file(id),
    queryFn: async ({ signal }) =>
      (await api.download(TicketsApi.getUserTicketAttachment, { params: { id } }, { signal })).blob,
    staleTime: Number.POSITIVE_INFINITY,
  });

/** POST /user/ticket/attachment (multipart) */
export const uploadAttachment = (file: Blob, onProgress?: (percent: number) => void) => {
  const form = new FormData();
  form.append("file", file);
  return api.upload(TicketsApi.postUserTicketAttachment, form, {
    onUploadProgress: onProgress,
  });
};

export const createTicket = (body: CreateTicketBody) => api.call(TicketsApi.postUserTicket, { body });
export const replyTicket = (id: number, body: TicketReplyBody) =>
  api.call(TicketsApi.postUserTicketReply, { params: { ticket_id: id }, body });
export const closeTicket = (id: number) => api.call(TicketsApi.postUserTicketClose, { params: { ticket_id: id } });

export const staffReply = (id: number, body: AdminTicketReplyBody) =>
  api.call(TicketsApi.postSuperTicketReply, { params: { ticket_id: id }, body });
export const staffClose = (id: number, content = "") =>
  api.call(TicketsApi.postSuperTicketClose, { params: { ticket_id: id }, body: { content } });
export const staffUnlock = (id: number, content = "") =>
  api.call(TicketsApi.postSuperTicketUnlock, { params: { ticket_id: id }, body: { content } });
