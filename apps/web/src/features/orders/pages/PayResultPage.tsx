import { fenToYuan, OrderType, PayStatus } from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Descriptions, Result, Spin } from "antd";
import { type ReactNode, useEffect, useState } from "react";
import { Navigate, useNavigate, useSearchParams } from "react-router";
import { OrderTypeTag, PayStatusTag } from "@/components/StoreTags";
import { isMissing, refreshAfterPayment } from "@/features/store/store.api";
import { feedback } from "@/lib/feedback";
import { formatTime } from "@/lib/format";
import { getToken } from "@/lib/token";
import { cancelOrder, myOrderQuery, ordersKeys } from "../orders.api";
import { nextPlace, PAY_POLL_INTERVAL_MS, PAY_POLL_LIMIT_MS, payOutcome, retryPlace } from "../pay-result";

const TRADE_ID = /^[A-Za-z0-9]{8,40}$/;

/**
 * /result/pay?trade_id=…: where the gateway returns the browser. Asks the server about the order
 * until it is paid or closed (the notify may arrive a little after the browser) and says which.
 */
export function PayResultPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const tradeId = params.get("trade_id") ?? "";
  const valid = TRADE_ID.test(tradeId);
  const signedIn = getToken() !== null;
  const [timedOut, setTimedOut] = useState(false);

  const {
    data: order,
    error,
    refetch,
    isFetching,
  } = useQuery({
    ...myOrderQuery(tradeId),
    enabled: valid && signedIn,
    staleTime: 0,
    meta: { silentError: true },
    refetchInterval: (q) => (!timedOut && q.state.data?.status === PayStatus.Awaiting ? PAY_POLL_INTERVAL_MS : false),
  });

  useEffect(() => {
    const timer = setTimeout(() => setTimedOut(true), PAY_POLL_LIMIT_MS);
    return () => clearTimeout(timer);
  }, []);

  const cancel = useMutation({
    mutationFn: () => cancelOrder(tradeId),
    onSuccess: async () => {
      feedback.success("订单已取消");
      await queryClient.invalidateQueries({ queryKey: ordersKeys.mine(tradeId) });
    },
  });

  const outcome = order ? payOutcome(order.status, timedOut ? PAY_POLL_LIMIT_MS : 0) : undefined;

  // Paid: what the console shows (balance, plans) changed.
  useEffect(() => {
    if (outcome !== "paid") return;
    void refreshAfterPayment(queryClient);
  }, [outcome, queryClient]);

  if (!signedIn) return <Navigate to="/login" replace />;

  const home = (
    <Button key="home" onClick={() => navigate("/dashboard")}>
      返回控制台
    </Button>
  );

  let content: ReactNode;
  if (!valid) {
    content = <Result status="warning" title="缺少订单号" subTitle="支付结果链接不完整" extra={home} />;
  } else if (error) {
    const missing = isMissing(error);
    content = (
      <Result
        status={missing ? "404" : "error"}
        title={missing ? "订单不存在" : "查询支付结果失败"}
        subTitle={missing ? `未找到订单 ${tradeId}` : error.message}
        extra={[
          missing ? null : (
            <Button key="retry" type="primary" onClick={() => void refetch()}>
              重新查询
            </Button>
          ),
          home,
        ]}
      />
    );
  } else if (!order || !outcome) {
    content = <Result icon={<Spin size="large" />} title="正在查询支付结果…" />;
  } else {
    const next = nextPlace(order.type);
    const retry = retryPlace(order.type);
    const details = (
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
    switch (outcome) {
      case "paid":
        content = (
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
        break;
      case "closed":
        content = (
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
        break;
      case "refunded":
        content = (
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
        break;
      case "waiting":
      case "timeout":
        content = (
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
              <Button key="refresh" loading={isFetching} onClick={() => void refetch()}>
                刷新
              </Button>,
              <Button key="cancel" danger loading={cancel.isPending} onClick={() => cancel.mutate()}>
                取消订单
              </Button>,
              home,
            ]}
          >
            {details}
          </Result>
        );
        break;
    }
  }

  return (
    <main className="standalone-page pay-result">
      <Card className="pay-result-card">{content}</Card>
    </main>
  );
}
