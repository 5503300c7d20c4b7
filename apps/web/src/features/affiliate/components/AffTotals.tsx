import type { AffSummary } from "@burrow/contract";
import { fenToYuan } from "@burrow/contract";
import { Card, Col, Row, Statistic, Typography } from "antd";

/** The rebate figures: pending, available (red and explained when negative), processing, withdrawn. */
export function AffTotals({ data, extra }: { data: AffSummary; extra?: boolean }) {
  // Six figures in one row on wide screens with the invitee counts, four without.
  const xl = extra ? 4 : 6;
  const negative = data.available < 0;
  const cards = [
    { title: "待结算返利（元）", value: data.pending, testId: "aff-pending" },
    { title: "可提现返利（元）", value: data.available, testId: "aff-available" },
    { title: "提现处理中（元）", value: data.processing, testId: "aff-processing" },
    { title: "已提现（元）", value: data.withdrawn, testId: "aff-withdrawn" },
  ];
  return (
    <Row gutter={[16, 16]}>
      {extra ? (
        <>
          <Col xs={12} xl={xl}>
            <Card>
              <Statistic title="邀请注册（人）" value={data.invited_count} />
            </Card>
          </Col>
          <Col xs={12} xl={xl}>
            <Card>
              <Statistic title="被邀请人已付订单" value={data.paid_orders} />
            </Card>
          </Col>
        </>
      ) : null}
      {cards.map((c) => (
        <Col xs={12} xl={xl} key={c.testId}>
          <Card data-testid={c.testId}>
            <Statistic
              title={c.title}
              value={fenToYuan(c.value)}
              valueStyle={c.testId === "aff-available" && negative ? { color: "#cf1322" } : undefined}
            />
            {c.testId === "aff-available" && negative ? (
              <Typography.Text type="danger">
                已到账返利对应的订单被退款，冲回的金额将从之后的返利中扣除
              </Typography.Text>
            ) : null}
            {c.testId === "aff-pending" && data.waiting_verification > 0 ? (
              <Typography.Text type="warning" data-testid="aff-waiting-verification">
                其中 {fenToYuan(data.waiting_verification)} 元等待被邀请人完成实名认证后到账
              </Typography.Text>
            ) : null}
          </Card>
        </Col>
      ))}
    </Row>
  );
}
