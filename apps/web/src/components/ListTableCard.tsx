import { Card, type TablePaginationConfig } from "antd";
import type { ResponsiveColumns } from "./ResponsiveTable";
import { PagedTable } from "./table/PagedTable";

interface ListTableCardProps<T> {
  columns: ResponsiveColumns<T>;
  /** one page of rows, as the list query answers (undefined while loading) */
  data: { list: T[]; total?: number } | undefined;
  loading: boolean;
  /** the pagination for the page's total: useUrlFilters' `pagination` (the URL), or one over statePaging */
  pagination: (total: number | undefined) => TablePaginationConfig;
  rowKey?: keyof T & string;
  size?: "middle";
}

/** A list page's table in its card: one page of rows, paged on the server. */
export function ListTableCard<T extends object>({
  columns,
  data,
  loading,
  pagination,
  rowKey,
  size,
}: ListTableCardProps<T>) {
  return (
    <Card>
      <PagedTable<T>
        rowKey={rowKey ?? ("id" as keyof T & string)}
        size={size}
        columns={columns}
        query={{ data, isFetching: loading }}
        pagination={pagination}
      />
    </Card>
  );
}
