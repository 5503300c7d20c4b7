import {
  type OrderView,
  type PayChannel,
  PayChannelLabel,
  PayMethodLabel,
  PayStatus,
  PlanPeriodLabel,
} from "@burrow/contract";
import { Descriptions, type DescriptionsProps, Typography } from "antd";
import { OrderTypeTag, PayStatusTag } from "@/components/StoreTags";
import { lineText, quoteLines } from "@/features/store/pricing";
import { formatTime } from "@/lib/format";

const channelText = (payType: string | null) => (payType ? (PayChannelLabel[payType as PayChannel] ?? payType) : "-");

/**
 * What an order is and what became of it, as its customer and the operators both read it (labels,
 * yuan, Beijing time); `extra` adds rows only one side sees, after the status.
 */
export function orderInfoItems(
  order: OrderView,
  extra: NonNullable<DescriptionsProps["items"]> = [],
): NonNullable<DescriptionsProps["items"]> {
  return [
    { key: "trade", label: "订单号", span: 2, children: <Typography.Text copyable>{order.trade_id}</Typography.Text> },
    { key: "status", label: "状态", children: <PayStatusTag status={order.status} /> },
    { key: "type", label: "类型", children: <OrderTypeTag type={order.type} /> },
    ...extra,
    { key: "period", label: "周期", children: order.period ? PlanPeriodLabel[order.period] : "-" },
    { key: "name", label: "商品", span: 2, children: order.name },
    { key: "method", label: "支付方式", children: PayMethodLabel[order.pay_method] ?? order.pay_method },
    { key: "channel", label: "支付渠道", children: channelText(order.pay_type) },
    { key: "created", label: "创建时间", children: formatTime(order.created_at) },
    order.status === PayStatus.Awaiting
      ? { key: "expires", label: "支付截止", children: formatTime(order.expires_at) }
      : { key: "paid", label: "支付时间", children: formatTime(order.paid_at) },
    ...(order.closed_at ? [{ key: "closed", label: "关闭时间", children: formatTime(order.closed_at) }] : []),
    ...(order.refunded_at ? [{ key: "refunded", label: "退款时间", children: formatTime(order.refunded_at) }] : []),
    ...(order.note ? [{ key: "note", label: "备注", span: 2, children: order.note }] : []),
  ];
}

/** The price of an order line by line (原价, 折扣, 优惠码, 抵扣, 赠送, 应付). */
export function OrderAmountLines({ order }: { order: OrderView }) {
  return (
    <Descriptions
      title="金额"
      size="small"
      column={1}
      bordered
      items={quoteLines(order).map((line) => ({ key: line.key, label: line.label, children: lineText(line) }))}
    />
  );
}
