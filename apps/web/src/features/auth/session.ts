import type { QueryClient } from "@tanstack/react-query";
import { clearToken, setToken } from "@/lib/token";
import { shellKeys } from "../shell/shell.api";

/** Drops everything cached for a user, keeping the public site info. */
function dropUserData(queryClient: QueryClient): void {
  const site = shellKeys.site();
  queryClient.removeQueries({
    predicate: (q) => q.queryKey.length !== site.length || q.queryKey.some((part, i) => part !== site[i]),
  });
}

/**
 * Starts a session after sign-in or registration.
 * @param queryClient the app's query client (a previous user's data is dropped)
 * @param token the token from the server
 */
export function startSession(queryClient: QueryClient, token: string): void {
  dropUserData(queryClient);
  setToken(token);
}

/**
 * Ends the session locally: token and cached user data. Call after navigating away from the console.
 * @param queryClient the app's query client
 */
export function endSession(queryClient: QueryClient): void {
  clearToken();
  dropUserData(queryClient);
}
