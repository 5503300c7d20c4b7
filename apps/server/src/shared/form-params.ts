/**
 * Flattens query/form values to strings. Returns null when a key is repeated (in one source or
 * across two) or holds anything but a string or number: which copy a signature covers would be
 * ambiguous, so such a message is refused (payment notifies, a verification provider's result).
 */
export function flattenParams(...sources: unknown[]): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const src of sources) {
    if (!src || typeof src !== "object") continue;
    for (const [k, v] of Object.entries(src as Record<string, unknown>)) {
      if (Array.isArray(v) || Object.hasOwn(out, k)) return null;
      if (typeof v === "string" || typeof v === "number") out[k] = String(v);
      else return null;
    }
  }
  return out;
}
