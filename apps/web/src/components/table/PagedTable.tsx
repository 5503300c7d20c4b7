import type { TablePaginationConfig } from "antd";
import { ResponsiveTable, type ResponsiveTableProps } from "../ResponsiveTable";

/** The state of a list query that a paged table reads: one page of rows (undefined while loading). */
export interface PageQuery<T> {
  data?: { list: T[]; total?: number };
  isFetching: boolean;
}

export interface PagedTableProps<T> extends Omit<ResponsiveTableProps<T>, "dataSource" | "loading" | "pagination"> {
  /** the list query (useQuery's result, or one page picked out of a larger answer) */
  query: PageQuery<T>;
  /** the pagination for the page's total: useUrlFilters' or useStatusPaging's `pagination`, or one over statePaging */
  pagination: (total: number | undefined) => TablePaginationConfig;
}

/** A responsive table of one page of a server-paged list: its rows, its loading state and its pagination. */
export function PagedTable<T extends object>({ query, pagination, ...rest }: PagedTableProps<T>) {
  return (
    <ResponsiveTable<T>
      {...rest}
      dataSource={query.data?.list}
      loading={query.isFetching}
      pagination={pagination(query.data?.total)}
    />
  );
}
