import { RoleLabel } from "@burrow/contract";
import { RiAccountCircleLine, RiDashboard3Line } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { Avatar, Card, Space, Typography } from "antd";
import { EChart } from "@/components/EChart";
import { LinkButton } from "@/components/LinkButton";
import { PageContainer } from "@/components/PageContainer";
import { userInfoQuery } from "@/features/account/account.api";
import { HomeContent } from "@/features/home/components/HomeContent";
import { userHomeQuery } from "@/features/home/home.api";
import { UnreadTicketsNotice } from "@/features/tickets/components/UnreadTicketsNotice";
import { dailyTrafficOption } from "@/features/traffic/chart-options";
import { accessOf } from "@/lib/access";
import { DISPLAY_TZ, dayjs } from "@/lib/dayjs";
import { avatarInitial, formatTime } from "@/lib/format";
import { DashboardStats } from "../components/DashboardStats";
import { dashChartQuery, dashDataQuery } from "../dashboard.api";

/** Greeting by the hour in Asia/Shanghai. */
export function greeting(hour: number): string {
  if (hour < 6) return "夜深了";
  if (hour < 12) return "早上好";
  if (hour < 14) return "中午好";
  if (hour < 18) return "下午好";
  return "晚上好";
}

/** /dashboard: welcome, balance and account state; the admin entry for staff. */
export function DashboardPage() {
  const { data: user } = useQuery(userInfoQuery());
  const { data: dash } = useQuery(dashDataQuery());
  const { data: chart } = useQuery(dashChartQuery());
  const { data: home } = useQuery(userHomeQuery());
  if (!user) return null;
  const { canEnterAdmin } = accessOf(user);
  const name = user.nickname || user.personal_info.phone_number;
  const hello = greeting(dayjs().tz(DISPLAY_TZ).hour());

  return (
    <PageContainer
      title="控制台"
      extra={
        <Space>
          <LinkButton icon={<RiAccountCircleLine size={16} />} to="/account/info">
            个人中心
          </LinkButton>
          {canEnterAdmin ? (
            <LinkButton type="primary" icon={<RiDashboard3Line size={16} />} to="/adm">
              管理后台
            </LinkButton>
          ) : null}
        </Space>
      }
    >
      <Card className="dashboard-welcome">
        <Space size={16} align="center">
          <Avatar size={56} src={user.personal_info.avatar || undefined} alt="头像">
            {user.personal_info.avatar ? null : avatarInitial(user)}
          </Avatar>
          <div>
            <Typography.Title level={4} style={{ margin: 0 }}>
              {hello}，{name}
            </Typography.Title>
            <Typography.Text type="secondary">
              UID {user.uid} · {RoleLabel[user.role] ?? "用户"} · 注册于 {formatTime(user.created_at)}
            </Typography.Text>
          </div>
        </Space>
      </Card>
      <UnreadTicketsNotice />
      {home ? <HomeContent home={home} /> : null}
      {dash ? <DashboardStats data={dash} /> : null}
      <Card title="近 7 天流量" className="dashboard-chart">
        {chart ? <EChart option={dailyTrafficOption(chart.days)} label="近 7 天流量趋势" height={260} /> : null}
      </Card>
    </PageContainer>
  );
}
