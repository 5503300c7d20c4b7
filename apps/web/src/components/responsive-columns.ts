import type { ColumnType } from "antd/es/table";

/**
 * What a list column tells the responsive table about itself (issue 35 §2/§5).
 * - `priority`: 1 is always shown; 2, 3, … are shown, most important first, while the table's
 *   width allows; the rest go into the row's detail. Unset counts as 3.
 * - `role`: `status` is shown first on a phone card, `title` names the card, `action` (the 操作
 *   column; a column keyed `actions` is one too) is always shown and ends the card.
 */
export interface ResponsiveMeta {
  priority?: number;
  role?: "status" | "title" | "action";
}

export type ResponsiveColumn<T> = ColumnType<T> & ResponsiveMeta;
export type ResponsiveColumns<T> = ResponsiveColumn<T>[];

/**
 * What the planning below reads of a column. The functions are generic over the column, not over
 * antd's ColumnType<T>: relating ColumnType<T> for an open T (its dataIndex is a recursive path
 * type of T) made the type checker run out of memory.
 */
export interface PlannedColumn extends ResponsiveMeta {
  key?: unknown;
  width?: unknown;
}

/** The width a column without a numeric `width` is planned with. */
export const DEFAULT_COLUMN_WIDTH = 120;
/** The width of antd's expand-icon column. */
export const EXPAND_COLUMN_WIDTH = 48;
/** The width of antd's row-selection column (its theme's selectionColumnWidth, 32 px, and its padding). */
export const SELECTION_COLUMN_WIDTH = 48;
/** On a phone card, columns up to this priority are shown; the rest fold under 更多. */
export const CARD_PRIORITY = 2;
const UNSET_PRIORITY = 3;

export const roleOf = (c: PlannedColumn): ResponsiveMeta["role"] =>
  c.role ?? (c.key === "actions" ? "action" : undefined);

export const priorityOf = (c: PlannedColumn): number => (roleOf(c) ? 1 : Math.max(1, c.priority ?? UNSET_PRIORITY));

export const widthOf = (c: PlannedColumn): number => (typeof c.width === "number" ? c.width : DEFAULT_COLUMN_WIDTH);

export interface ColumnPlan<C> {
  /** in their declared order */
  shown: C[];
  /** in their declared order: these go into the row's detail */
  hidden: C[];
}

/**
 * Which columns fit in `available` pixels. Everything when it all fits (or the width is not known
 * yet, 0); otherwise the priority-1 columns, then the others in priority order (declared order
 * within a priority) until the next one no longer fits beside the expand icon. Importance is
 * strict: a narrow column never jumps ahead of a wider, more important one that did not fit.
 */
export function planColumns<C extends PlannedColumn>(columns: C[], available: number): ColumnPlan<C> {
  const total = columns.reduce((w, c) => w + widthOf(c), 0);
  if (available <= 0 || total <= available) return { shown: columns, hidden: [] };
  const keep = new Set<C>();
  let used = EXPAND_COLUMN_WIDTH;
  for (const c of columns) {
    if (priorityOf(c) === 1) {
      keep.add(c);
      used += widthOf(c);
    }
  }
  const rest = columns
    .map((c, i) => ({ c, i }))
    .filter(({ c }) => !keep.has(c))
    .sort((a, b) => priorityOf(a.c) - priorityOf(b.c) || a.i - b.i);
  for (const { c } of rest) {
    if (used + widthOf(c) > available) break;
    keep.add(c);
    used += widthOf(c);
  }
  return { shown: columns.filter((c) => keep.has(c)), hidden: columns.filter((c) => !keep.has(c)) };
}

/** A phone card's parts: status first, then the title, the fields, the detail, the actions. */
export interface CardPlan<C> {
  status: C[];
  title: C[];
  fields: C[];
  detail: C[];
  actions: C[];
}

/** A card shows at least this many fields (the most important), so it never shows only 更多. */
export const CARD_MIN_FIELDS = 3;

export function planCard<C extends PlannedColumn>(columns: C[]): CardPlan<C> {
  const by = (role: ResponsiveMeta["role"]) => columns.filter((c) => roleOf(c) === role);
  const plain = by(undefined);
  const ranked = plain
    .map((c, i) => ({ c, i }))
    .sort((a, b) => priorityOf(a.c) - priorityOf(b.c) || a.i - b.i)
    .map(({ c }) => c);
  const shown = new Set(ranked.filter((c, i) => priorityOf(c) <= CARD_PRIORITY || i < CARD_MIN_FIELDS));
  return {
    status: by("status"),
    title: by("title"),
    fields: plain.filter((c) => shown.has(c)),
    detail: plain.filter((c) => !shown.has(c)),
    actions: by("action"),
  };
}

/** The cell value a column's dataIndex points at (a key or a path of keys). */
export function cellValue(c: PlannedColumn & { dataIndex?: unknown }, row: unknown): unknown {
  const path: unknown[] = c.dataIndex === undefined ? [] : Array.isArray(c.dataIndex) ? c.dataIndex : [c.dataIndex];
  let v: unknown = row;
  for (const k of path) {
    if (v === null || v === undefined) return undefined;
    v = (v as Record<string | number, unknown>)[k as string | number];
  }
  return path.length ? v : undefined;
}
