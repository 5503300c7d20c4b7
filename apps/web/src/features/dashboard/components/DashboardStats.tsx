import type { DashData } from "@burrow/contract";
import { fenToYuan } from "@burrow/contract";
import { RiCalendarCheckLine } from "@remixicon/react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Col, Progress, Row, Statistic, Typography } from "antd";
import { LinkButton } from "@/components/LinkButton";
import { feedback } from "@/lib/feedback";
import { formatBytes, formatTime } from "@/lib/format";
import { checkIn, dashboardKeys } from "../dashboard.api";

/** Percentage of quota used, 0–100 (a spent quota shows 100 even when overdrawn). */
export function quotaPercent(used: number, quota: number): number {
  if (quota <= 0) return used > 0 ? 100 : 0;
  return Math.min(100, Math.round((used / quota) * 1000) / 10);
}

/** The dashboard's figures: balance, plan and traffic, tunnels, today's traffic, daily check-in. */
export function DashboardStats({ data }: { data: DashData }) {
  const queryClient = useQueryClient();
  const checkin = useMutation({
    mutationFn: checkIn,
    onSuccess: async (r) => {
      feedback.success(`签到成功，获得 ${formatBytes(r.bonus_bytes)} 流量，已连续签到 ${r.streak} 天`);
      await queryClient.invalidateQueries({ queryKey: dashboardKeys.all });
    },
  });
  const plan = data.plan;
  const percent = plan ? quotaPercent(plan.traffic_used, plan.traffic_quota) : 0;

  return (
    <Row gutter={[16, 16]} className="dashboard-stats">
      <Col xs={24} md={12} xl={6}>
        <Card>
          <Statistic title="账户余额（元）" value={fenToYuan(data.balance)} prefix="¥" />
          <LinkButton type="link" style={{ padding: 0 }} to="/epay/recharge">
            去充值
          </LinkButton>
        </Card>
      </Col>
      <Col xs={24} md={12} xl={6}>
        <Card title="当前套餐" size="small">
          {plan ? (
            <>
              <Typography.Text strong>{plan.name}</Typography.Text>
              <div>
                <Typography.Text type="secondary">
                  {plan.end_at ? `到期：${formatTime(plan.end_at)}` : "长期有效"}
                </Typography.Text>
              </div>
              <Progress percent={percent} status={plan.usable ? "normal" : "exception"} aria-label="流量使用进度" />
              <Typography.Text type="secondary">
                已用 {formatBytes(plan.traffic_used)} / 共 {formatBytes(plan.traffic_quota)}
              </Typography.Text>
            </>
          ) : (
            <Typography.Text type="secondary">暂无套餐</Typography.Text>
          )}
        </Card>
      </Col>
      <Col xs={24} md={12} xl={6}>
        <Card>
          <Statistic title="在线隧道" value={data.tunnels.online} suffix={`/ ${data.tunnels.total}`} />
          <Typography.Text type="secondary">
            今日流量 入 {formatBytes(data.today.traffic_in)} · 出 {formatBytes(data.today.traffic_out)}
          </Typography.Text>
        </Card>
      </Col>
      <Col xs={24} md={12} xl={6}>
        <Card>
          <Statistic title="连续签到（天）" value={data.checkin.streak} />
          <Button
            type="primary"
            icon={<RiCalendarCheckLine size={16} />}
            disabled={data.checkin.today}
            loading={checkin.isPending}
            onClick={() => checkin.mutate()}
          >
            {data.checkin.today ? "今日已签到" : "每日签到"}
          </Button>
          <div>
            {/* Where the bonus went: into the plan in use; a plan bought later takes over what is unused. */}
            <Typography.Text type="secondary" title="签到流量计入当前套餐；购买新套餐时，未用完的部分转入新套餐">
              累计获得 {formatBytes(data.checkin.total_bonus)}（计入当前套餐）
            </Typography.Text>
          </div>
        </Card>
      </Col>
    </Row>
  );
}
