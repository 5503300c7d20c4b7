import { coveringWildcard } from "@burrow/contract";
import type { UsableDomain } from "./entries";

/**
 * The holding that lets a customer bind `domain` to a tunnel, shared by the console's tunnel
 * writes and NewProxy (console and agent): the name itself, or for a plain name one label under a
 * wildcard the customer holds, the wildcard (`x.a.com` under `*.a.com`). An entry marked `taken`
 * is a name another customer holds exactly: the customer's wildcard does not cover it.
 */
export function domainHolding(domains: ReadonlyMap<string, UsableDomain>, domain: string): UsableDomain | undefined {
  const own = domains.get(domain);
  if (own) return own;
  const wildcard = coveringWildcard(domain);
  return wildcard ? domains.get(wildcard) : undefined;
}
