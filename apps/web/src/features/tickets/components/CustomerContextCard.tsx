import {
  type AdminOrderRow,
  type AdminTunnelRow,
  fenToYuan,
  type TicketCustomerContext,
  UserStatusLabel,
} from "@burrow/contract";
import { Card, Descriptions, Empty, Space, Table, type TableColumnsType, Tag, Typography } from "antd";
import { Link } from "react-router";
import { PayStatusTag } from "@/components/StoreTags";
import { TunnelStatusTag } from "@/features/tunnels/components/TunnelTags";
import { ADMIN_BASE } from "@/lib/access";
import { formatBytes, formatTime, phoneText } from "@/lib/format";

// The sidebar is about 280 px wide at 1366 px: fixed layouts whose widths add up to less, the long
// text cut with an ellipsis, so neither table overflows its card.
const tunnelColumns: TableColumnsType<AdminTunnelRow> = [
  { title: "ID", dataIndex: "tun_id", width: 48 },
  { title: "名称", dataIndex: "tun_name", ellipsis: true },
  { title: "协议", dataIndex: "protocol", width: 64, render: (p: string) => p.toUpperCase() },
  {
    title: "状态",
    dataIndex: "status",
    width: 90,
    render: (s: number, r) => <TunnelStatusTag status={s} enabled={r.enabled} bannedReason={r.banned_reason} />,
  },
];

const orderColumns: TableColumnsType<AdminOrderRow> = [
  {
    title: "订单",
    key: "order",
    ellipsis: true,
    render: (_: unknown, o) => (
      <>
        <Typography.Text ellipsis={{ tooltip: o.name }}>{o.name}</Typography.Text>
        <br />
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {formatTime(o.created_at).slice(0, 16)}
        </Typography.Text>
      </>
    ),
  },
  { title: "金额（元）", dataIndex: "amount", width: 84, align: "right", render: (fen: number) => fenToYuan(fen) },
  { title: "状态", dataIndex: "status", width: 72, render: (s: number) => <PayStatusTag status={s} /> },
];

/** The customer beside the thread: account, plan now, tunnels, recent orders. */
export function CustomerContextCard({ customer }: { customer: TicketCustomerContext }) {
  const plan = customer.plan;
  return (
    <Space orientation="vertical" size={16} style={{ width: "100%" }}>
      <Card size="small" title="用户" extra={<Link to={`${ADMIN_BASE}/usermgr/list/${customer.uid}`}>用户详情</Link>}>
        <Descriptions column={1} size="small">
          <Descriptions.Item label="UID">{customer.uid}</Descriptions.Item>
          <Descriptions.Item label="手机号">{phoneText(customer.phone)}</Descriptions.Item>
          <Descriptions.Item label="昵称">{customer.nickname || "—"}</Descriptions.Item>
          <Descriptions.Item label="状态">
            <Tag color={customer.status === 1 ? "green" : "red"}>
              {UserStatusLabel[customer.status] ?? customer.status}
            </Tag>
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <Card size="small" title="当前套餐">
        {plan ? (
          <Descriptions column={1} size="small">
            <Descriptions.Item label="套餐">{plan.plan_name}</Descriptions.Item>
            <Descriptions.Item label="到期">{plan.end_at ? formatTime(plan.end_at) : "长期"}</Descriptions.Item>
            <Descriptions.Item label="流量">
              {formatBytes(plan.traffic_used)} / {formatBytes(plan.traffic_quota)}
            </Descriptions.Item>
            <Descriptions.Item label="带宽">{plan.bandwidth} Mbps</Descriptions.Item>
            <Descriptions.Item label="隧道上限">{plan.tunnel_limit}</Descriptions.Item>
            {plan.usable ? null : <Descriptions.Item label="不可用">{plan.reason ?? "—"}</Descriptions.Item>}
          </Descriptions>
        ) : (
          <Empty description="没有套餐" image={Empty.PRESENTED_IMAGE_SIMPLE} />
        )}
      </Card>
      <Card size="small" title={`隧道（${customer.tunnel_total}）`}>
        <Table<AdminTunnelRow>
          rowKey="tun_id"
          size="small"
          columns={tunnelColumns}
          tableLayout="fixed"
          dataSource={customer.tunnels}
          pagination={false}
          locale={{ emptyText: "没有隧道" }}
        />
      </Card>
      <Card size="small" title="最近订单">
        <Table<AdminOrderRow>
          rowKey="trade_id"
          size="small"
          columns={orderColumns}
          tableLayout="fixed"
          dataSource={customer.orders}
          pagination={false}
          locale={{ emptyText: "没有订单" }}
        />
      </Card>
    </Space>
  );
}
