/** Rows per multi-row statement: far below both drivers' bind-parameter limits (SQLite 32,766, PostgreSQL 65,535). */
export const STATEMENT_ROWS = 400;

/** `items` cut into runs of at most `size`, for statements that would otherwise bind too many parameters. */
export function chunks<T>(items: T[], size = STATEMENT_ROWS): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
