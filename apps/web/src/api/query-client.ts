import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { feedback } from "@/lib/feedback";
import { ApiError, ClientErrorCode } from "./client";

/** Per-query / per-mutation options read by the global error handler. */
export interface AppMeta extends Record<string, unknown> {
  /** the caller shows the error itself (forms putting it on a field) */
  silentError?: boolean;
}

declare module "@tanstack/react-query" {
  interface Register {
    queryMeta: AppMeta;
    mutationMeta: AppMeta;
  }
}

/**
 * Shows an error once, centrally (STYLE §3.2 rule 5). Session and permission codes are not shown:
 * the client has already navigated to /login or /403.
 * @param error what a query or mutation rejected with
 */
export function reportError(error: unknown): void {
  // A cancelled request (page left, query superseded) is not an error to show.
  if (error instanceof DOMException && error.name === "AbortError") return;
  if (error instanceof ApiError) {
    if (error.isSessionInvalid || error.isForbidden) return;
    feedback.error(error.message);
    return;
  }
  feedback.error(error instanceof Error && error.message ? error.message : "操作失败，请稍后重试");
}

const transient = (error: unknown) =>
  error instanceof ApiError && (error.code === ClientErrorCode.Network || error.code === ClientErrorCode.Timeout);

/** The app's one QueryClient. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (!query.meta?.silentError) reportError(error);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _vars, _ctx, mutation) => {
        if (!mutation.meta?.silentError) reportError(error);
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // Only transport failures are worth a second try; server answers are final.
        retry: (count, error) => count < 1 && transient(error),
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
