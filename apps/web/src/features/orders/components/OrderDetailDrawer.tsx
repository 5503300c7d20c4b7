import { type AdminOrderDetail, type BalanceLedgerRow, fenToYuan } from "@burrow/contract";
import { useQuery } from "@tanstack/react-query";
import { Button, Descriptions, Drawer, Result, Skeleton, Space, Table, type TableColumnsType, Typography } from "antd";
import { useState } from "react";
import { Link } from "react-router";
import { SubscriptionStatusTag } from "@/components/StoreTags";
import { ADMIN_BASE } from "@/lib/access";
import { formatBytes, formatTime, phoneText } from "@/lib/format";
import { orderDetailQuery } from "../orders.api";
import { ledgerChangeColumn, ledgerTimeColumn } from "./LedgerCard";
import { OrderAmountLines, orderInfoItems } from "./OrderInfo";
import { RefundModal } from "./RefundModal";

const ledgerColumns: TableColumnsType<BalanceLedgerRow> = [
  ledgerTimeColumn(170),
  ledgerChangeColumn(100),
  { title: "变动后（元）", dataIndex: "balance_after", width: 110, align: "right", render: fenToYuan },
  { title: "说明", dataIndex: "reason", ellipsis: true },
];

/** The body of the drawer once the order is loaded. */
function OrderDetailBody({ order }: { order: AdminOrderDetail }) {
  const sub = order.subscription;
  return (
    <Space orientation="vertical" size={20} style={{ width: "100%" }}>
      <Descriptions
        title="订单信息"
        size="small"
        column={2}
        bordered
        items={orderInfoItems(order, [
          { key: "id", label: "订单 ID", children: order.id },
          { key: "channel_trade", label: "网关交易号", children: order.channel_trade_id ?? "-" },
        ])}
      />
      <OrderAmountLines order={order} />
      <Descriptions
        title="用户"
        size="small"
        column={2}
        bordered
        items={[
          {
            key: "uid",
            label: "UID",
            children: <Link to={`${ADMIN_BASE}/usermgr/list/${order.user.uid}`}>{order.user.uid}</Link>,
          },
          { key: "phone", label: "手机号", children: phoneText(order.user.phone) },
          { key: "nickname", label: "昵称", children: order.user.nickname || "-" },
          { key: "balance", label: "当前余额", children: `¥${fenToYuan(order.user.balance)}` },
        ]}
      />
      {sub ? (
        <Descriptions
          title="关联套餐"
          size="small"
          column={2}
          bordered
          items={[
            { key: "plan", label: "套餐", children: sub.plan_name },
            { key: "status", label: "状态", children: <SubscriptionStatusTag status={sub.status} /> },
            { key: "start", label: "开始时间", children: formatTime(sub.start_at) },
            { key: "end", label: "到期时间", children: sub.end_at ? formatTime(sub.end_at) : "永久有效" },
            {
              key: "traffic",
              label: "流量",
              span: 2,
              children: `已用 ${formatBytes(sub.traffic_used)} / ${formatBytes(sub.traffic_quota)}`,
            },
          ]}
        />
      ) : null}
      <div>
        <Typography.Title level={5}>余额变动</Typography.Title>
        <Table<BalanceLedgerRow>
          rowKey="id"
          size="small"
          columns={ledgerColumns}
          dataSource={order.ledger}
          pagination={false}
          locale={{ emptyText: "无余额变动" }}
        />
      </div>
    </Space>
  );
}

export interface OrderDetailDrawerProps {
  /** the order shown; null: closed */
  tradeId: string | null;
  /** managers may refund */
  canRefund: boolean;
  onClose: () => void;
}

/** An order's detail in a drawer, with "refund to balance" for managers (the refund dialog shows the amount and why). */
export function OrderDetailDrawer({ tradeId, canRefund, onClose }: OrderDetailDrawerProps) {
  const [refunding, setRefunding] = useState<AdminOrderDetail | null>(null);
  const {
    data: order,
    isPending,
    isError,
  } = useQuery({
    ...orderDetailQuery(tradeId ?? ""),
    enabled: tradeId !== null,
  });

  return (
    <Drawer
      open={tradeId !== null}
      title={tradeId ? `订单详情 · ${tradeId}` : "订单详情"}
      size={720}
      onClose={onClose}
      destroyOnHidden
      extra={
        canRefund && order?.refundable ? (
          <Button danger onClick={() => setRefunding(order)}>
            退款到余额
          </Button>
        ) : null
      }
    >
      <RefundModal order={refunding} onClose={() => setRefunding(null)} />
      {isError ? (
        <Result status="404" title="订单不存在" />
      ) : isPending || !order ? (
        <Skeleton active />
      ) : (
        <OrderDetailBody order={order} />
      )}
    </Drawer>
  );
}
