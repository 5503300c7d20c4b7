import { type AdminOrderRow, OrderTypeLabel, PayMethodLabel, PayStatusLabel } from "@burrow/contract";
import { useQuery } from "@tanstack/react-query";
import { Button, Form } from "antd";
import { useSearchParams } from "react-router";
import { amountColumn, customerColumn, statusColumn, timeColumn } from "@/components/ListColumns";
import { ListTableCard } from "@/components/ListTableCard";
import { PageContainer } from "@/components/PageContainer";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import { SearchCard } from "@/components/SearchCard";
import { IdFilter, SelectFilter, TextFilter } from "@/components/SearchFields";
import { OrderTypeTag, PayStatusTag, tradeIdColumn } from "@/components/StoreTags";
import { useAccess } from "@/hooks/useAccess";
import { useUrlFilters } from "@/hooks/useUrlFilters";
import { labelOptions } from "@/lib/options";
import { OrderDetailDrawer } from "../components/OrderDetailDrawer";
import { orderListQuery } from "../orders.api";

const filterSpec = {
  user_id: "int",
  order_id: "int",
  channel_trade_id: "text",
  local_trade_id: "text",
  type: "int",
  status: "int",
} as const;

/** /admin/order: every order with the SPEC §7 filters (in the URL); detail and refund in a drawer. */
export function OrderListPage() {
  const [form] = Form.useForm();
  const [params, setParams] = useSearchParams();
  const { filters, search, reset, pagination } = useUrlFilters(filterSpec, form);
  const { data, isFetching } = useQuery(orderListQuery(filters));
  const { canWrite } = useAccess();

  // The open order is in the URL too (?trade=…), so a detail can be linked to.
  const openTrade = params.get("trade");
  const setTrade = (tradeId: string | null) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (tradeId) next.set("trade", tradeId);
      else next.delete("trade");
      return next;
    });

  const columns: ResponsiveColumns<AdminOrderRow> = [
    { title: "ID", priority: 6, dataIndex: "id", width: 80 },
    tradeIdColumn(),
    statusColumn("status", 90, (s: number) => <PayStatusTag status={s} />),
    customerColumn({ priority: 2, width: 170 }),
    { title: "类型", priority: 3, dataIndex: "type", width: 100, render: (t: number) => <OrderTypeTag type={t} /> },
    { title: "商品", priority: 2, dataIndex: "name", ellipsis: true },
    amountColumn({ priority: 2, width: 110 }),
    {
      title: "支付方式",
      priority: 4,
      dataIndex: "pay_method",
      width: 100,
      render: (m: number) => PayMethodLabel[m] ?? m,
    },
    timeColumn("创建时间", "created_at", { priority: 3, width: 175 }),
    timeColumn("支付时间", "paid_at", { priority: 4, width: 175 }),
    {
      title: "操作",
      key: "actions",
      width: 80,
      render: (_: unknown, row) => (
        <Button
          type="link"
          size="small"
          onClick={() => setTrade(row.trade_id)}
          aria-label={`订单 ${row.trade_id} 详情`}
        >
          详情
        </Button>
      ),
    },
  ];

  return (
    <PageContainer title="订单管理">
      <SearchCard form={form} onFinish={search} onReset={reset}>
        <IdFilter name="user_id" label="用户 UID" width={130} />
        <IdFilter name="order_id" label="订单 ID" width={130} />
        <TextFilter name="local_trade_id" label="订单号" max={40} width={200} />
        <TextFilter name="channel_trade_id" label="网关交易号" max={64} width={200} />
        <SelectFilter name="type" label="类型" width={120} options={labelOptions(OrderTypeLabel)} />
        <SelectFilter name="status" label="状态" width={110} options={labelOptions(PayStatusLabel)} />
      </SearchCard>
      <ListTableCard columns={columns} data={data} loading={isFetching} pagination={pagination} />
      <OrderDetailDrawer tradeId={openTrade} canRefund={canWrite} onClose={() => setTrade(null)} />
    </PageContainer>
  );
}
