import { fenToYuan, type OrderDetail, OrderType } from "@burrow/contract";
import { Button, Descriptions, Result, Spin } from "antd";
import type { ReactNode } from "react";
import { useNavigate } from "react-router";
import { OrderTypeTag, PayStatusTag } from "@/components/StoreTags";
import { formatTime } from "@/lib/format";
import { nextPlace, type PayOutcome, retryPlace } from "../pay-result";

/** The order the payment was for, under every outcome. */
function PayOrderDetails({ order }: { order: OrderDetail }) {
  return (
    <Descriptions
      size="small"
      column={1}
      className="pay-result-details"
      items={[
        { key: "trade", label: "订单号", children: order.trade_id },
        { key: "name", label: "商品", children: order.name },
        { key: "type", label: "类型", children: <OrderTypeTag type={order.type} /> },
        { key: "amount", label: "金额", children: `¥${fenToYuan(order.amount)}` },
        ...(order.type === OrderType.Recharge && order.bonus > 0
          ? [{ key: "bonus", label: "赠送", children: `¥${fenToYuan(order.bonus)}` }]
          : []),
        { key: "status", label: "状态", children: <PayStatusTag status={order.status} /> },
        ...(order.paid_at ? [{ key: "paid", label: "支付时间", children: formatTime(order.paid_at) }] : []),
      ]}
    />
  );
}

interface PayOutcomeResultProps {
  order: OrderDetail;
  outcome: PayOutcome;
  /** The "返回控制台" button, shown beside every outcome's own actions. */
  home: ReactNode;
  refreshing: boolean;
  onRefresh: () => void;
  cancelling: boolean;
  onCancel: () => void;
}

/** The pay result page once the order is known: paid, closed, refunded, or still waiting. */
export function PayOutcomeResult({
  order,
  outcome,
  home,
  refreshing,
  onRefresh,
  cancelling,
  onCancel,
}: PayOutcomeResultProps) {
  const navigate = useNavigate();
  const details = <PayOrderDetails order={order} />;
  const next = nextPlace(order.type);
  const retry = retryPlace(order.type);
  switch (outcome) {
    case "paid":
      return (
        <Result
          status="success"
          title="支付成功"
          subTitle={order.note || (order.type === OrderType.Recharge ? "充值金额已到账" : "套餐已生效")}
          extra={[
            <Button key="next" type="primary" onClick={() => navigate(next.path)}>
              {next.label}
            </Button>,
            home,
          ]}
        >
          {details}
        </Result>
      );
    case "closed":
      return (
        <Result
          status="error"
          title="订单已关闭"
          subTitle="订单超时未支付或已取消。如已付款，款项会自动计入账户余额。"
          extra={[
            <Button key="retry" type="primary" onClick={() => navigate(retry.path)}>
              {retry.label}
            </Button>,
            home,
          ]}
        >
          {details}
        </Result>
      );
    case "refunded":
      return (
        <Result
          status="info"
          title="订单已退款"
          subTitle="款项已退回账户余额"
          extra={[
            <Button key="next" type="primary" onClick={() => navigate("/epay/recharge")}>
              查看余额
            </Button>,
            home,
          ]}
        >
          {details}
        </Result>
      );
    case "waiting":
    case "timeout":
      return (
        <Result
          status={outcome === "waiting" ? "info" : "warning"}
          icon={outcome === "waiting" ? <Spin size="large" /> : undefined}
          title={outcome === "waiting" ? "等待支付结果…" : "暂未收到支付结果"}
          subTitle={
            outcome === "waiting"
              ? "正在向支付平台确认，请稍候"
              : "如已完成支付，请稍后刷新；未支付的订单将在 15 分钟后自动关闭"
          }
          extra={[
            order.pay_url ? (
              <Button key="pay" type="primary" href={order.pay_url}>
                继续支付
              </Button>
            ) : null,
            <Button key="refresh" loading={refreshing} onClick={onRefresh}>
              刷新
            </Button>,
            <Button key="cancel" danger loading={cancelling} onClick={onCancel}>
              取消订单
            </Button>,
            home,
          ]}
        >
          {details}
        </Result>
      );
  }
}
