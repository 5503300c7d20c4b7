import { useQuery } from "@tanstack/react-query";
import { Card, Col, Row, Statistic } from "antd";
import { PageContainer } from "@/components/PageContainer";
import { viewInfoQuery } from "../adminview.api";
import { SignupChart } from "../components/SignupChart";

/** /admin/view: user totals and the 30-day sign-up trend. */
export function AdminViewPage() {
  const { data, isPending } = useQuery(viewInfoQuery());
  return (
    <PageContainer title="数据概览">
      <Row gutter={[16, 16]}>
        <Col xs={24} md={8}>
          <Card loading={isPending}>
            <Statistic title="用户总数" value={data?.users_total ?? 0} suffix="人" />
          </Card>
        </Col>
        <Col xs={24} md={8}>
          <Card loading={isPending}>
            <Statistic title="今日注册" value={data?.users_today ?? 0} suffix="人" />
          </Card>
        </Col>
        <Col xs={24} md={8}>
          <Card loading={isPending}>
            <Statistic title="已封禁" value={data?.users_banned ?? 0} suffix="人" />
          </Card>
        </Col>
        <Col span={24}>
          <Card title="近 30 天注册" loading={isPending}>
            {data ? <SignupChart data={data.signups} /> : null}
          </Card>
        </Col>
      </Row>
    </PageContainer>
  );
}
