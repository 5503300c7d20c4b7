import { fenToYuan, NodeStatusLabel } from "@burrow/contract";
import { useQuery } from "@tanstack/react-query";
import { Card, Col, Empty, Row, Statistic, Tag, Typography } from "antd";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { PageContainer } from "@/components/PageContainer";
import { useAccess } from "@/hooks/useAccess";
import { formatBytes } from "@/lib/format";
import { RevenueTrafficChart } from "../components/RevenueTrafficChart";
import { SetupChecklistCard } from "../components/SetupChecklistCard";
import { SignupChart } from "../components/SignupChart";
import { viewInfoQuery } from "../overview.api";

function Stat({
  title,
  value,
  suffix,
  loading,
}: {
  title: string;
  value: ReactNode;
  suffix?: string;
  loading: boolean;
}) {
  return (
    <Col xs={12} md={6}>
      <Card loading={loading}>
        <Statistic title={title} value={value as string} suffix={suffix} />
      </Card>
    </Col>
  );
}

/** /admin/view: users, tunnels, nodes, traffic, revenue, the work waiting, and 30 days of figures. */
export function OverviewPage() {
  const { data, isPending } = useQuery(viewInfoQuery());
  const l = isPending;
  // Only managers can fix what the checklist lists (and read it).
  const { canWrite } = useAccess();
  return (
    <PageContainer title="数据概览">
      <Row gutter={[16, 16]}>
        {canWrite ? <SetupChecklistCard /> : null}
        <Stat title="用户总数" value={data?.users_total ?? 0} suffix="人" loading={l} />
        <Stat title="今日注册" value={data?.users_today ?? 0} suffix="人" loading={l} />
        <Stat title="已实名" value={data?.users_verified ?? 0} suffix="人" loading={l} />
        <Stat title="已封禁" value={data?.users_banned ?? 0} suffix="人" loading={l} />
        <Stat title="今日营收" value={`¥${fenToYuan(data?.revenue.today ?? 0)}`} loading={l} />
        <Stat title="本月营收" value={`¥${fenToYuan(data?.revenue.month ?? 0)}`} loading={l} />
        <Stat title="今日充值" value={`¥${fenToYuan(data?.revenue.today_recharge ?? 0)}`} loading={l} />
        <Stat title="本月充值" value={`¥${fenToYuan(data?.revenue.month_recharge ?? 0)}`} loading={l} />
        <Stat title="今日流量" value={formatBytes(data?.traffic.today ?? 0)} loading={l} />
        <Stat title="本月流量" value={formatBytes(data?.traffic.month ?? 0)} loading={l} />
        <Stat
          title="在线隧道 / 隧道总数"
          value={`${data?.tunnels.online ?? 0} / ${data?.tunnels.total ?? 0}`}
          loading={l}
        />
        <Stat
          title="节点 在线 / 离线 / 异常 / 下架"
          value={
            data
              ? `${data.nodes.online} / ${data.nodes.offline} / ${data.nodes.exception} / ${data.nodes.off_shelf}`
              : "-"
          }
          loading={l}
        />
        <Col xs={24} md={12}>
          <Card title="需要关注的节点" loading={l} className="overview-attention">
            {data?.nodes.attention.length ? (
              <ul className="overview-list">
                {data.nodes.attention.map((n) => (
                  <li key={n.node_id}>
                    <Link to={`/admin/node?name=${encodeURIComponent(n.name)}`}>
                      #{n.node_id} {n.name}
                    </Link>
                    <Tag color={n.status === 3 ? "red" : "orange"}>{NodeStatusLabel[n.status]}</Tag>
                  </li>
                ))}
              </ul>
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="所有节点正常" />
            )}
          </Card>
        </Col>
        <Col xs={24} md={12}>
          <Card title="待处理" loading={l} className="overview-waiting">
            {data?.waiting.length ? (
              <ul className="overview-list">
                {data.waiting.map((w) => (
                  <li key={w.key}>
                    <Link to={`/admin${w.path}`}>{w.label}</Link>
                    <Typography.Text strong>{w.count}</Typography.Text>
                  </li>
                ))}
              </ul>
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无待处理事项" />
            )}
          </Card>
        </Col>
        <Col span={24}>
          <Card title="近 30 天营收与流量" loading={l}>
            {data ? <RevenueTrafficChart data={data.daily} /> : null}
          </Card>
        </Col>
        <Col span={24}>
          <Card title="近 30 天注册" loading={l}>
            {data ? <SignupChart data={data.signups} /> : null}
          </Card>
        </Col>
      </Row>
    </PageContainer>
  );
}
