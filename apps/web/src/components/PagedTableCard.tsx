import type { Paged } from "@burrow/contract";
import { type QueryKey, type UseQueryOptions, useQuery } from "@tanstack/react-query";
import { Card, type TablePaginationConfig } from "antd";
import type { ReactNode } from "react";
import { useState } from "react";
import type { ResponsiveColumns } from "./ResponsiveTable";
import { PagedTable } from "./table/PagedTable";

export interface PagedTableCardProps<T, K extends QueryKey> {
  title: ReactNode;
  /** with their priorities (responsive-columns.ts) */
  columns: ResponsiveColumns<T>;
  /** the query of one page, e.g. `(page, size) => ledgerQuery(page, size)` */
  query: (page: number, size: number) => UseQueryOptions<Paged<T>, Error, Paged<T>, K>;
  /** the card's header actions */
  extra?: ReactNode;
  className?: string;
}

/**
 * A table's pagination for a page and size kept in state: 共 N 条, the size changer, and back to
 * page 1 when the size changes.
 */
export function statePaging(
  page: number,
  size: number,
  total: number,
  setPage: (p: number) => void,
  setSize: (s: number) => void,
): TablePaginationConfig {
  return {
    current: page,
    pageSize: size,
    total,
    showSizeChanger: true,
    showTotal: (n) => `共 ${n} 条`,
    onChange: (p, s) => {
      setPage(s === size ? p : 1);
      setSize(s);
    },
  };
}

/** A card holding one table paged on the server (page and size kept in state, 10 a page). */
export function PagedTableCard<T extends { id: number | string }, K extends QueryKey>({
  title,
  columns,
  query,
  extra,
  className,
}: PagedTableCardProps<T, K>) {
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(10);
  const rows = useQuery(query(page, size));
  return (
    <Card title={title} extra={extra} className={className}>
      <PagedTable<T>
        rowKey="id"
        size="middle"
        columns={columns}
        query={rows}
        pagination={(total) => statePaging(page, size, total ?? 0, setPage, setSize)}
      />
    </Card>
  );
}
