import { Button, Flex, Table, type TableProps, Typography } from "antd";
import { isValidElement, type ReactNode, useLayoutEffect, useRef, useState } from "react";
import { useIsPhone } from "@/hooks/useIsPhone";
import {
  cellValue,
  planCard,
  planColumns,
  type ResponsiveColumn,
  type ResponsiveColumns,
  SELECTION_COLUMN_WIDTH,
  widthOf,
} from "./responsive-columns";

export type { ResponsiveColumns } from "./responsive-columns";

export interface ResponsiveTableProps<T> extends Omit<TableProps<T>, "columns" | "scroll"> {
  columns: ResponsiveColumns<T>;
  /** vertical scrolling only: the table never scrolls sideways */
  scrollY?: number;
}

/** What a column shows for a row (its render, else the value), outside the table. */
function cell<T>(c: ResponsiveColumn<T>, row: T, index: number): ReactNode {
  const value = cellValue(c, row);
  const out = c.render ? c.render(value, row, index) : value;
  // a render may answer antd's { children, props } cell object
  if (out && typeof out === "object" && !isValidElement(out) && "children" in out) {
    return (out as { children: ReactNode }).children;
  }
  if (out === null || out === undefined || out === "") return "-";
  return out as ReactNode;
}

const title = <T,>(c: ResponsiveColumn<T>): ReactNode => (typeof c.title === "function" ? null : c.title);

/**
 * Columns as "label：value" lines: one a line on a card, side by side in a row's detail. Plain
 * elements, not a table: a detail inside a table row adds no rows of its own to find.
 */
function Fields<T>({
  columns,
  row,
  index,
  vertical,
}: {
  columns: ResponsiveColumns<T>;
  row: T;
  index: number;
  vertical?: boolean;
}) {
  return (
    <Flex vertical={vertical} wrap={!vertical} gap={vertical ? 4 : "4px 32px"} className="responsive-fields">
      {columns.map((c, i) => (
        <div key={String(c.key ?? c.dataIndex ?? i)}>
          <Typography.Text type="secondary">{title(c)}：</Typography.Text>
          {cell(c, row, index)}
        </div>
      ))}
    </Flex>
  );
}

/** A row as a phone card: status first, the title, the main fields, 更多 for the rest, the actions. */
function RowCard<T>({
  columns,
  row,
  index,
  extra,
}: {
  columns: ResponsiveColumns<T>;
  row: T;
  index: number;
  extra?: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const plan = planCard(columns);
  const more = plan.detail.length > 0 || extra;
  return (
    <Flex vertical gap={8} className="responsive-card">
      <Flex gap={8} wrap align="center" className="responsive-card-head">
        {plan.status.map((c, i) => (
          <span key={String(c.key ?? i)} data-role="status">
            {cell(c, row, index)}
          </span>
        ))}
        {plan.title.map((c, i) => (
          <strong key={String(c.key ?? i)}>{cell(c, row, index)}</strong>
        ))}
      </Flex>
      {plan.fields.length > 0 && <Fields vertical columns={plan.fields} row={row} index={index} />}
      {open && plan.detail.length > 0 && <Fields vertical columns={plan.detail} row={row} index={index} />}
      {open && extra}
      <Flex gap={4} wrap align="center" justify="space-between">
        <div data-role="actions">
          {plan.actions.map((c, i) => (
            <span key={String(c.key ?? i)}>{cell(c, row, index)}</span>
          ))}
        </div>
        {more && (
          <Button type="link" size="small" onClick={() => setOpen(!open)}>
            {open ? "收起" : "更多"}
          </Button>
        )}
      </Flex>
    </Flex>
  );
}

/** The width of the element, kept current (0 until it is laid out). */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return { ref, width };
}

/**
 * A list table that shows what matters at every width (issue 35 §2/§5). Each column declares a
 * priority (responsive-columns.ts): the columns that fit the table's width are shown, the others
 * in the row's expandable detail, so the table never scrolls sideways. On a phone each row is a
 * card: status first, then the title and main fields, 更多 for the rest, and the actions.
 * A caller's own `expandable.expandedRowRender` is shown below the hidden columns.
 */
export function ResponsiveTable<T extends object>({
  columns,
  scrollY,
  expandable,
  className,
  ...rest
}: ResponsiveTableProps<T>) {
  const phone = useIsPhone();
  const { ref, width } = useWidth();
  // the caller's own detail, for the rows it is meant for
  const own = (row: T, index: number, indent: number, expanded: boolean): ReactNode =>
    expandable?.expandedRowRender && (expandable.rowExpandable?.(row) ?? true)
      ? expandable.expandedRowRender(row, index, indent, expanded)
      : null;
  if (phone) {
    return (
      <div ref={ref} className="responsive-table responsive-cards">
        <Table<T>
          {...rest}
          className={className}
          showHeader={false}
          tableLayout="fixed"
          scroll={scrollY ? { y: scrollY } : undefined}
          columns={[
            {
              key: "card",
              render: (_: unknown, row: T, index: number) => (
                <RowCard columns={columns} row={row} index={index} extra={own(row, index, 0, true)} />
              ),
            },
          ]}
        />
      </div>
    );
  }
  // a row-selection column takes its width from what the columns can have
  const selection = rest.rowSelection ? SELECTION_COLUMN_WIDTH : 0;
  const { shown, hidden } = planColumns(columns, width > 0 ? Math.max(1, width - selection) : 0);
  const detail =
    hidden.length > 0 || expandable?.expandedRowRender
      ? {
          ...expandable,
          // with columns folded in, every row has a detail
          rowExpandable: hidden.length > 0 ? undefined : expandable?.rowExpandable,
          expandedRowRender: (row: T, index: number, indent: number, expanded: boolean) => (
            <>
              {hidden.length > 0 && <Fields columns={hidden} row={row} index={index} />}
              {own(row, index, indent, expanded)}
            </>
          ),
        }
      : undefined;
  return (
    <div ref={ref} className="responsive-table">
      <Table<T>
        {...rest}
        className={className}
        tableLayout="fixed"
        scroll={scrollY ? { y: scrollY } : undefined}
        expandable={detail}
        // the table fits: nothing is pinned, and every width is what the plan counted with
        columns={shown.map(({ priority: _p, role: _r, fixed: _f, ...c }) => ({ ...c, width: widthOf(c) }))}
      />
    </div>
  );
}
