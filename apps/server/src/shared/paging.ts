import type { Paged } from "@burrow/contract";

/**
 * Runs a page query and its count together and answers the DESIGN.md §3 list shape.
 * @param rows fetches one page given limit and offset
 * @param count counts every matching row (drivers may answer bigint as string, hence Number)
 */
export async function pageOf<T>(
  page: number,
  size: number,
  rows: (limit: number, offset: number) => Promise<T[]>,
  count: () => Promise<number | string | bigint>,
): Promise<Paged<T>> {
  const [list, total] = await Promise.all([rows(size, (page - 1) * size), count()]);
  return { list, total: Number(total), page, size };
}
