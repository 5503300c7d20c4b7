import { PayStatus } from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Result, Spin } from "antd";
import { type ReactNode, useEffect, useState } from "react";
import { Navigate, useNavigate, useSearchParams } from "react-router";
import { isMissing, refreshAfterPayment } from "@/features/store/store.api";
import { feedback } from "@/lib/feedback";
import { getToken } from "@/lib/token";
import { PayOutcomeResult } from "../components/PayOutcomeResult";
import { cancelOrder, myOrderQuery, ordersKeys } from "../orders.api";
import { PAY_POLL_INTERVAL_MS, PAY_POLL_LIMIT_MS, payOutcome } from "../pay-result";

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
    content = (
      <PayOutcomeResult
        order={order}
        outcome={outcome}
        home={home}
        refreshing={isFetching}
        onRefresh={() => void refetch()}
        cancelling={cancel.isPending}
        onCancel={() => cancel.mutate()}
      />
    );
  }

  return (
    <main className="standalone-page pay-result">
      <Card className="pay-result-card">{content}</Card>
    </main>
  );
}
