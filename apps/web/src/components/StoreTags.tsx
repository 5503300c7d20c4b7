import {
  Kind,
  KindLabel,
  OrderType,
  OrderTypeLabel,
  PayStatus,
  PayStatusLabel,
  SubscriptionStatus,
  SubscriptionStatusLabel,
} from "@burrow/contract";
import { Space, Tag, Typography } from "antd";
import type { ResponsiveColumn } from "./responsive-columns";

/** Tags of the store's statuses and kinds, shared by the customer pages and the operators' desks. */

const payColor: Record<number, string> = {
  [PayStatus.Refunded]: "purple",
  [PayStatus.Closed]: "default",
  [PayStatus.Paid]: "success",
  [PayStatus.Awaiting]: "processing",
};

/** Payment status (SPEC §4): 已退款 / 已关闭 / 已支付 / 待支付. */
export function PayStatusTag({ status }: { status: number }) {
  return <Tag color={payColor[status] ?? "default"}>{PayStatusLabel[status] ?? `状态 ${status}`}</Tag>;
}

const subscriptionColor: Record<number, string> = {
  [SubscriptionStatus.Refunded]: "purple",
  [SubscriptionStatus.Expired]: "default",
  [SubscriptionStatus.InUse]: "success",
  [SubscriptionStatus.OverQuota]: "error",
};

/** Plan / traffic-pack subscription status (SPEC §4): 已退款 / 已过期 / 使用中 / 超额. */
export function SubscriptionStatusTag({ status }: { status: number }) {
  return (
    <Tag color={subscriptionColor[status] ?? "default"}>{SubscriptionStatusLabel[status] ?? `状态 ${status}`}</Tag>
  );
}

const orderTypeColor: Record<number, string> = {
  [OrderType.Recharge]: "gold",
  [OrderType.Plan]: "blue",
  [OrderType.TrafficPack]: "cyan",
  [OrderType.Renewal]: "geekblue",
};

/** Order type (SPEC §3): 余额充值 / 套餐订阅 / 流量包 / 续费. */
export function OrderTypeTag({ type }: { type: number }) {
  return <Tag color={orderTypeColor[type] ?? "default"}>{OrderTypeLabel[type] ?? `类型 ${type}`}</Tag>;
}

/** What a plan row sells: 套餐 (type 2) or 流量包 (type 3). */
export function PlanTypeTag({ type }: { type: number }) {
  return type === OrderType.TrafficPack ? <Tag color="cyan">流量包</Tag> : <Tag color="blue">套餐</Tag>;
}

/** The choices of what a plan row sells (filters and the plan form). */
/** A plan's name in a list: the name, its kind, and 免费 for a free one. */
export function PlanName({ name, kind, free, period }: { name: string; kind: number; free: boolean; period?: string }) {
  return (
    <Space size={4} wrap>
      <span>{name}</span>
      <PlanTypeTag type={kind} />
      {free ? <Tag>免费</Tag> : null}
      {period ? <Tag>{period}</Tag> : null}
    </Space>
  );
}

export const PLAN_KIND_OPTIONS = [
  { value: OrderType.Plan, label: "套餐" },
  { value: OrderType.TrafficPack, label: "流量包" },
];

/** Gift card kind (SPEC §3 "Kind"): 余额 / 套餐. */
export function KindTag({ kind }: { kind: number }) {
  return <Tag color={kind === Kind.Balance ? "gold" : "blue"}>{KindLabel[kind] ?? `类型 ${kind}`}</Tag>;
}

/** An order list's 订单号 column (the row's title on a narrow screen), in code type. */
export function tradeIdColumn<T extends { trade_id: string }>(): ResponsiveColumn<T> {
  return {
    title: "订单号",
    role: "title",
    dataIndex: "trade_id",
    width: 210,
    render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
  };
}
