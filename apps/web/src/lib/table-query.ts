import type { CallInput, Endpoint, ResponseOf } from "@burrow/contract";
import { keepPreviousData, type QueryKey, queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";

/** What an endpoint takes as its query: a list's filters and paging. */
export type QueryOf<E> = NonNullable<CallInput<E>["query"]>;

/**
 * A server-paged list's query: the endpoint called with the list's filters as its query; the page
 * on screen stays while the next one loads (keepPreviousData), so the table does not empty itself
 * between pages.
 */
export function pagedListQuery<E extends Endpoint, K extends QueryKey>(queryKey: K, ep: E, query: QueryOf<E>) {
  // api.call's argument list is resolved per endpoint; for an open E it is this one
  const call = api.call as (
    ep: E,
    input: { query: QueryOf<E> },
    opts: { signal: AbortSignal },
  ) => Promise<ResponseOf<E>>;
  return queryOptions({
    queryKey,
    queryFn: ({ signal }) => call(ep, { query }, { signal }),
    placeholderData: keepPreviousData,
  });
}
