// @vitest-environment jsdom
import { fireEvent, render, screen, within } from "@testing-library/react";
import type { TablePaginationConfig } from "antd";
import { describe, expect, it } from "vitest";
import { deleteActionColumn, statusColumn, timeColumn } from "../ListColumns";
import type { ResponsiveColumns } from "../ResponsiveTable";
import { PagedTable } from "./PagedTable";

interface Row {
  id: number;
  state: string;
  created_at: string;
  handled_at: string | null;
}

const columns: ResponsiveColumns<Row> = [
  statusColumn<Row>("state", 90, (s: string, r) => `${s}#${r.id}`, "处理状态"),
  timeColumn<Row>("添加时间", "created_at", { priority: 1, width: 170 }),
  timeColumn<Row>("处理时间", "handled_at", { width: 170 }),
];

describe("PagedTable and the list column factories", () => {
  it("shows the query's page and hands its total to the pagination", () => {
    const totals: (number | undefined)[] = [];
    const pagination = (total: number | undefined): TablePaginationConfig => {
      totals.push(total);
      return { current: 1, pageSize: 10, total: total ?? 0, showTotal: (n) => `共 ${n} 条` };
    };
    const rows: Row[] = [
      { id: 1, state: "待处理", created_at: "2026-11-27T02:00:00.000Z", handled_at: null },
      { id: 2, state: "已处理", created_at: "2026-11-27T03:30:05.000Z", handled_at: "2026-11-28T16:00:00.000Z" },
    ];
    render(
      <PagedTable<Row>
        rowKey="id"
        columns={columns}
        query={{ data: { list: rows, total: 23 }, isFetching: false }}
        pagination={pagination}
      />,
    );
    expect(totals.at(-1)).toBe(23);
    expect(screen.getByText("共 23 条")).toBeTruthy();
    expect(screen.getByRole("columnheader", { name: "处理状态" })).toBeTruthy();
    const [, first, second] = screen.getAllByRole("row");
    // times are Shanghai wall-clock; an unset one is "-"
    expect(within(first).getByText("待处理#1")).toBeTruthy();
    expect(within(first).getByText("2026-11-27 10:00:00")).toBeTruthy();
    expect(within(first).getByText("-")).toBeTruthy();
    expect(within(second).getByText("2026-11-29 00:00:00")).toBeTruthy();
  });

  it("has no rows and a zero total while the query loads", () => {
    const totals: (number | undefined)[] = [];
    render(
      <PagedTable<Row>
        rowKey="id"
        columns={columns}
        query={{ data: undefined, isFetching: true }}
        pagination={(total) => {
          totals.push(total);
          return { total: total ?? 0 };
        }}
      />,
    );
    expect(totals.at(-1)).toBeUndefined();
    expect(document.querySelector(".ant-spin")).toBeTruthy();
  });

  it("deleteActionColumn's 删除 hands its own row to onDelete, named for assistive technology when asked", () => {
    const deleted: number[] = [];
    const rows: Row[] = [
      { id: 7, state: "a", created_at: "2026-11-27T02:00:00.000Z", handled_at: null },
      { id: 8, state: "b", created_at: "2026-11-27T02:00:00.000Z", handled_at: null },
    ];
    render(
      <PagedTable<Row>
        rowKey="id"
        columns={[
          ...columns,
          deleteActionColumn<Row>(
            (r) => deleted.push(r.id),
            (r) => `删除 ${r.id}`,
          ),
        ]}
        query={{ data: { list: rows, total: 2 }, isFetching: false }}
        pagination={(total) => ({ total: total ?? 0 })}
      />,
    );
    expect(screen.getByRole("columnheader", { name: "操作" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "删除 8" }));
    expect(deleted).toEqual([8]);
  });
});
