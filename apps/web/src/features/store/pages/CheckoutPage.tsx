import { OrderType } from "@burrow/contract";
import { RiArrowLeftLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { Card, Col, Result, Row, Space, Tag, Typography } from "antd";
import { useNavigate, useParams, useSearchParams } from "react-router";
import { LinkButton } from "@/components/LinkButton";
import { PageContainer } from "@/components/PageContainer";
import { PlanTypeTag } from "@/components/StoreTags";
import { CheckoutPanel } from "../components/CheckoutPanel";
import { LoadedPage } from "../components/LoadedPage";
import { PlanFeatures } from "../components/PlanFeatures";
import { pickPeriod } from "../pricing";
import { storePlanQuery } from "../store.api";

/** /purchase/plan/:planID: buy one plan or traffic pack. */
export function CheckoutPage() {
  const navigate = useNavigate();
  const params = useParams();
  const [search] = useSearchParams();
  const planId = Number(params.planID);
  const valid = Number.isInteger(planId) && planId > 0;
  const query = useQuery({
    ...storePlanQuery(planId),
    enabled: valid,
    // The page says what went wrong itself.
    meta: { silentError: true },
  });

  const back = (
    <LinkButton icon={<RiArrowLeftLine size={16} />} to="/purchase/plan">
      返回商店
    </LinkButton>
  );

  return (
    <LoadedPage
      title="购买套餐"
      back={back}
      valid={valid}
      query={query}
      notFound={{ title: "套餐不存在", subTitle: "该套餐不存在或已下架" }}
    >
      {(plan) => {
        const type = plan.type === OrderType.TrafficPack ? OrderType.TrafficPack : OrderType.Plan;
        const refused = plan.purchase === "refused" ? plan.purchase_note || "当前不能购买此套餐" : undefined;
        return (
          <PageContainer title={`购买 · ${plan.name}`} extra={back}>
            <Row gutter={[16, 16]}>
              <Col xs={24} lg={10}>
                <Card
                  title={
                    <Space size={8}>
                      <span>{plan.name}</span>
                      <PlanTypeTag type={plan.type} />
                      {plan.tag ? <Tag color="blue">{plan.tag}</Tag> : null}
                    </Space>
                  }
                >
                  {plan.simple_desc ? (
                    <Typography.Paragraph type="secondary">{plan.simple_desc}</Typography.Paragraph>
                  ) : null}
                  <PlanFeatures plan={plan} />
                  {plan.purchase_note && !refused ? (
                    <Typography.Paragraph type="secondary">{plan.purchase_note}</Typography.Paragraph>
                  ) : null}
                </Card>
              </Col>
              <Col xs={24} lg={14}>
                {plan.periods.length === 0 ? (
                  <Card>
                    <Result status="info" title="该套餐暂无可购买的周期" />
                  </Card>
                ) : (
                  <CheckoutPanel
                    target={{ type, plan_id: plan.id }}
                    periods={plan.periods}
                    initialPeriod={pickPeriod(plan, search.get("period"))}
                    refusedReason={refused}
                    submitText="立即支付"
                    onPaid={() => navigate("/epay/plan")}
                  />
                )}
              </Col>
            </Row>
          </PageContainer>
        );
      }}
    </LoadedPage>
  );
}
