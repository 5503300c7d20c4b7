/** How a list filter is read from the URL. */
export type FilterKind = "int" | "text";
export type FilterSpec = Record<string, FilterKind>;

/** The filters a spec describes, every one optional, plus paging. */
export type FiltersOf<S extends FilterSpec> = { page: number; size: number } & {
  [K in keyof S]?: S[K] extends "int" ? number : string;
};

const intOrUndef = (v: string | null) => {
  if (v === null || v.trim() === "") return undefined;
  const n = Number(v);
  return Number.isInteger(n) ? n : undefined;
};

/**
 * Reads list filters from the URL, so that a list survives reloads and "back".
 * @param params the location's search params
 * @param spec filter name → how to read it; unknown names are ignored
 * @param defaultSize page size when the URL names none
 */
export function readFilters<S extends FilterSpec>(params: URLSearchParams, spec: S, defaultSize = 10): FiltersOf<S> {
  const out: Record<string, unknown> = {
    page: Math.max(1, intOrUndef(params.get("page")) ?? 1),
    size: Math.min(100, Math.max(1, intOrUndef(params.get("size")) ?? defaultSize)),
  };
  for (const [key, kind] of Object.entries(spec)) {
    out[key] = kind === "int" ? intOrUndef(params.get(key)) : params.get(key)?.trim() || undefined;
  }
  return out as FiltersOf<S>;
}

/**
 * Writes filters back to search params, leaving out what is not set and the default paging.
 * @param filters the list filters
 * @param defaultSize the page size {@link readFilters} assumes
 */
export function writeFilters(filters: Record<string, unknown>, defaultSize = 10): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined || value === null || value === "") continue;
    if ((key === "page" && value === 1) || (key === "size" && value === defaultSize)) continue;
    out.set(key, String(value));
  }
  return out;
}

/** A list query's filters as the pages hold them: everything optional but paging. */
export type ListFilters<Q extends { page: number; size: number }> = Partial<Omit<Q, "page" | "size">> & {
  page: number;
  size: number;
};
