import { Select, Space } from "antd";
import { useState } from "react";
import { labelOptions } from "@/lib/options";
import { statePaging } from "./PagedTableCard";

/**
 * Page, size and one status filter of a customer's list, kept in state (10 a page); choosing a
 * status goes back to page 1.
 */
export function useStatusPaging() {
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(10);
  const [status, setStatus] = useState<number>();
  return {
    page,
    size,
    status,
    setStatus: (v: number | undefined) => {
      setStatus(v);
      setPage(1);
    },
    pagination: (total: number | undefined) => statePaging(page, size, total ?? 0, setPage, setSize),
  };
}

/** 状态 [全部 ▾] above a customer's list. */
export function StatusFilter({
  labels,
  value,
  onChange,
}: {
  labels: Record<number, string>;
  value: number | undefined;
  onChange: (v: number | undefined) => void;
}) {
  return (
    <Space style={{ marginBottom: 16 }}>
      <span>状态</span>
      <Select
        allowClear
        placeholder="全部"
        style={{ width: 160 }}
        value={value}
        onChange={onChange}
        options={labelOptions(labels)}
      />
    </Space>
  );
}
