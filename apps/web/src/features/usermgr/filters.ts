import type { UserListFilters } from "./usermgr.api";

const intOrUndef = (v: string | null) => {
  if (v === null || v.trim() === "") return undefined;
  const n = Number(v);
  return Number.isInteger(n) ? n : undefined;
};

/**
 * Reads the user-list filters from the URL, so that the list survives reloads and "back".
 * @param params the location's search params
 */
export function filtersFromSearch(params: URLSearchParams): UserListFilters {
  return {
    page: Math.max(1, intOrUndef(params.get("page")) ?? 1),
    size: Math.min(100, Math.max(1, intOrUndef(params.get("size")) ?? 10)),
    phone: params.get("phone")?.trim() || undefined,
    uid: intOrUndef(params.get("uid")),
    status: intOrUndef(params.get("status")),
    role: intOrUndef(params.get("role")),
    start_date: params.get("start_date") || undefined,
    end_date: params.get("end_date") || undefined,
  };
}

/**
 * Writes filters back to search params, leaving out what is not set and the default paging.
 * @param filters the list filters
 */
export function filtersToSearch(filters: UserListFilters): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined || value === null || value === "") continue;
    if ((key === "page" && value === 1) || (key === "size" && value === 10)) continue;
    out.set(key, String(value));
  }
  return out;
}
