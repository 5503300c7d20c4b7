import { PlanPeriodLabel } from "@burrow/contract";
import { RiArrowLeftLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { Button, Card, Col, Descriptions, Result, Row } from "antd";
import { useNavigate, useParams } from "react-router";
import { PageContainer } from "@/components/PageContainer";
import { SubscriptionStatusTag } from "@/components/StoreTags";
import { myOrderQuery } from "@/features/orders/orders.api";
import { CheckoutPanel } from "@/features/store/components/CheckoutPanel";
import { LoadedPage } from "@/features/store/components/LoadedPage";
import { PlanFeatures } from "@/features/store/components/PlanFeatures";
import { pickPeriod } from "@/features/store/pricing";
import { formatTime } from "@/lib/format";
import { TrafficBar } from "../components/TrafficBar";

const TRADE_ID = /^[A-Za-z0-9]{8,40}$/;

/** /epay/plan/:tradeID: renew the subscription the order opened; the end date moves on by the period. */
export function RenewPage() {
  const navigate = useNavigate();
  const { tradeID = "" } = useParams();
  const valid = TRADE_ID.test(tradeID);
  const query = useQuery({
    ...myOrderQuery(tradeID),
    enabled: valid,
    // The page says what went wrong itself.
    meta: { silentError: true },
  });

  const back = (
    <Button icon={<RiArrowLeftLine size={16} />} onClick={() => navigate("/epay/plan")}>
      返回我的套餐
    </Button>
  );

  return (
    <LoadedPage
      title="套餐续费"
      back={back}
      valid={valid}
      query={query}
      notFound={{ title: "订单不存在", subTitle: `未找到订单 ${tradeID}` }}
    >
      {(order) => {
        const sub = order.subscription;
        const plan = order.plan;
        if (!sub || !plan) {
          return (
            <PageContainer title="套餐续费" extra={back}>
              <Result status="warning" title="该订单没有可续费的套餐" />
            </PageContainer>
          );
        }

        return (
          <PageContainer title={`续费 · ${sub.plan_name}`} extra={back}>
            <Row gutter={[16, 16]}>
              <Col xs={24} lg={10}>
                <Card title="当前套餐">
                  <Descriptions
                    size="small"
                    column={1}
                    items={[
                      { key: "name", label: "套餐", children: sub.plan_name },
                      { key: "status", label: "状态", children: <SubscriptionStatusTag status={sub.status} /> },
                      { key: "period", label: "周期", children: sub.period ? PlanPeriodLabel[sub.period] : "-" },
                      { key: "start", label: "开始时间", children: formatTime(sub.start_at) },
                      { key: "end", label: "到期时间", children: sub.end_at ? formatTime(sub.end_at) : "永久有效" },
                      {
                        key: "traffic",
                        label: "流量",
                        children: (
                          <TrafficBar used={sub.traffic_used} quota={sub.traffic_quota} left={sub.traffic_left} />
                        ),
                      },
                    ]}
                  />
                  <PlanFeatures plan={plan} />
                </Card>
              </Col>
              <Col xs={24} lg={14}>
                {order.renewable && plan.periods.length > 0 ? (
                  <CheckoutPanel
                    target={{ type: 4, trade_id: order.trade_id }}
                    periods={plan.periods}
                    initialPeriod={pickPeriod(plan, sub.period)}
                    submitText="立即续费"
                    onPaid={() => navigate("/epay/plan")}
                  />
                ) : (
                  <Card>
                    <Result
                      status="warning"
                      title="该套餐当前不能续费"
                      subTitle="已过期、已退款、免费套餐或没有可选周期的套餐不能续费，请购买新的套餐。"
                      extra={
                        <Button type="primary" onClick={() => navigate("/purchase/plan")}>
                          去购买
                        </Button>
                      }
                    />
                  </Card>
                )}
              </Col>
            </Row>
          </PageContainer>
        );
      }}
    </LoadedPage>
  );
}
