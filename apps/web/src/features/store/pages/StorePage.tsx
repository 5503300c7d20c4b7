import { OrderType, type PlanPeriod, PlanPeriodLabel, type StorePlan } from "@burrow/contract";
import { useQuery } from "@tanstack/react-query";
import { Alert, Card, Col, Empty, Row, Segmented, Space, Tabs, Typography } from "antd";
import { Link, useNavigate, useSearchParams } from "react-router";
import { LinkButton } from "@/components/LinkButton";
import { PageContainer } from "@/components/PageContainer";
import { formatTime } from "@/lib/format";
import { PlanCard } from "../components/PlanCard";
import { periodsOnSale } from "../pricing";
import { catalogQuery } from "../store.api";

const kindTabs = [
  { key: String(OrderType.Plan), label: "套餐" },
  { key: String(OrderType.TrafficPack), label: "流量包" },
];

/** /purchase/plan: the store, grouped by store level, with a period switcher (kept in the URL). */
export function StorePage() {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const { data: catalog, isPending } = useQuery(catalogQuery());

  const type = params.get("type") === String(OrderType.TrafficPack) ? OrderType.TrafficPack : OrderType.Plan;
  const groups = (catalog?.levels ?? [])
    .map((g) => ({ ...g, plans: g.plans.filter((p) => p.type === type) }))
    .filter((g) => g.plans.length > 0);
  const periods = periodsOnSale(groups.flatMap((g) => g.plans));
  const wanted = params.get("period") as PlanPeriod | null;
  const period = wanted && periods.includes(wanted) ? wanted : periods[0];

  const setParam = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    next.set(key, value);
    if (key === "type") next.delete("period");
    setParams(next, { replace: true });
  };

  const buy = (plan: StorePlan) =>
    navigate(`/purchase/plan/${plan.id}${period ? `?period=${encodeURIComponent(period)}` : ""}`);

  const current = catalog?.current;
  return (
    <PageContainer
      title="购买套餐"
      extra={
        <Space>
          <LinkButton to="/epay/plan">我的套餐</LinkButton>
          <LinkButton to="/epay/recharge">余额充值</LinkButton>
        </Space>
      }
    >
      {current ? (
        <Alert
          type="info"
          showIcon
          title={
            <span>
              当前套餐：<strong>{current.plan_name}</strong>
              {current.free ? "（免费）" : current.end_at ? `，到期时间 ${formatTime(current.end_at)}` : ""}
              <Link to="/epay/plan" style={{ marginLeft: 12 }}>
                查看详情
              </Link>
            </span>
          }
        />
      ) : null}
      <Card>
        <Tabs activeKey={String(type)} items={kindTabs} onChange={(key) => setParam("type", key)} />
        {periods.length > 0 && period ? (
          <Segmented
            className="store-period-switch"
            value={period}
            options={periods.map((p) => ({ value: p, label: PlanPeriodLabel[p] }))}
            onChange={(v) => setParam("period", String(v))}
          />
        ) : null}
        {isPending ? (
          <Card loading variant="borderless" />
        ) : groups.length === 0 || !period ? (
          <Empty
            className="store-empty"
            description={
              // What a customer can do meanwhile, not just that the shelf is empty.
              <Space orientation="vertical" size={4}>
                <Typography.Text strong>
                  {type === OrderType.TrafficPack ? "暂无在售的流量包" : "暂无在售的套餐"}
                </Typography.Text>
                <Typography.Text type="secondary">
                  新的套餐上架后会在这里显示，注册赠送的免费套餐可在<Link to="/epay/plan">我的套餐</Link>查看。 有疑问请
                  <Link to="/help/ticket">提交工单</Link>。
                </Typography.Text>
              </Space>
            }
          />
        ) : (
          groups.map((group) => (
            <section key={group.level_id} className="store-level" aria-label={group.name}>
              <Typography.Title level={5} className="store-level-title">
                {group.name}
              </Typography.Title>
              <Row gutter={[16, 16]}>
                {group.plans.map((plan) => (
                  <Col key={plan.id} xs={24} md={12} xl={8} xxl={6}>
                    <PlanCard plan={plan} period={period} onBuy={buy} />
                  </Col>
                ))}
              </Row>
            </section>
          ))
        )}
      </Card>
    </PageContainer>
  );
}
