import { type ApiTokenScope, ApiTokenScopes, type Endpoint, Endpoints } from "@burrow/contract";

export interface ScopedEndpoint {
  scope: ApiTokenScope;
  method: string;
  /** as called: /api/… */
  path: string;
  summary: string;
}

/**
 * Every endpoint an API token may reach, read from the contract's endpoint table (the scope each
 * entry declares), grouped by scope in ApiTokenScopes' order, then by path: the list /doc/api shows.
 */
export function tokenEndpoints(): ScopedEndpoint[] {
  const eps = Object.values(Endpoints).flatMap((group) => Object.values(group as Record<string, Endpoint>));
  return ApiTokenScopes.flatMap((scope) =>
    eps
      .filter((ep) => ep.scope === scope)
      .map((ep) => ({ scope, method: ep.method, path: `/api${ep.url}`, summary: ep.summary }))
      .sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method)),
  );
}

/** The worked example: list one's tunnels with a token, against this console. */
export const curlExample = (origin: string): string =>
  `curl -s -H "Authorization: Bearer brw_你的令牌" \\\n  "${origin}/api/user/tun?page=1&size=10"`;
