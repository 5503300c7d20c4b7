import type { BalanceLedgerRow } from "@burrow/contract";
import { fenToYuan } from "@burrow/contract";
import { Typography } from "antd";
import { PagedTableCard } from "@/components/PagedTableCard";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import { formatTime } from "@/lib/format";
import { ledgerQuery } from "../orders.api";

type LedgerColumn = ResponsiveColumns<BalanceLedgerRow>[number];

/** 时间 of a ledger entry (the customer's card, an order's and a user's ledgers). */
export const ledgerTimeColumn = (width: number): LedgerColumn => ({
  title: "时间",
  role: "title",
  dataIndex: "created_at",
  width,
  render: (v: string) => formatTime(v),
});

/** 变动（元）: the signed change, green in and red out. */
export const ledgerChangeColumn = (width: number): LedgerColumn => ({
  title: "变动（元）",
  priority: 2,
  dataIndex: "change",
  width,
  align: "right",
  render: (fen: number) => (
    <Typography.Text type={fen < 0 ? "danger" : "success"}>
      {fen > 0 ? "+" : fen < 0 ? "-" : ""}
      {fenToYuan(Math.abs(fen))}
    </Typography.Text>
  ),
});

const columns: ResponsiveColumns<BalanceLedgerRow> = [
  ledgerTimeColumn(180),
  ledgerChangeColumn(120),
  { title: "变动后余额（元）", priority: 2, dataIndex: "balance_after", width: 150, align: "right", render: fenToYuan },
  { title: "说明", priority: 2, dataIndex: "reason", ellipsis: true },
  { title: "订单号", priority: 4, dataIndex: "order_id", width: 200, render: (v: string | null) => v ?? "-" },
];

/** The customer's balance ledger, paged on the server. */
export function LedgerCard() {
  return <PagedTableCard title="余额明细" columns={columns} query={ledgerQuery} />;
}
