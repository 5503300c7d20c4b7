import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Card, Space, Switch, Tag, Typography } from "antd";
import { CopyButton } from "@/components/CopyButton";
import { feedback } from "@/lib/feedback";
import { badgeUrl, publicPageUrl, setPublicPage, tunnelUptimeQuery, uptimeKeys } from "../uptime.api";
import { IncidentList } from "./IncidentList";
import { UptimeBars } from "./UptimeBars";

/** The tunnel detail page's 可用性 card: 90 daily bars, incidents, the public status page switch. */
export function TunnelUptimeCard({ tunId }: { tunId: number }) {
  const queryClient = useQueryClient();
  const { data, isPending } = useQuery(tunnelUptimeQuery(tunId));
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => setPublicPage(tunId, enabled),
    onSuccess: (d) => {
      queryClient.setQueryData(uptimeKeys.tunnel(tunId), d);
      feedback.success(d.public_page.enabled ? "公开状态页已开启" : "公开状态页已关闭");
    },
  });
  const page = data?.public_page;
  return (
    <Card
      title="可用性"
      loading={isPending}
      extra={data && <Tag color={data.online ? "green" : "red"}>{data.online ? "在线" : "离线"}</Tag>}
    >
      {data && (
        <Space direction="vertical" style={{ width: "100%" }} size="middle">
          <UptimeBars days={data.days} pct={data.pct} />
          <IncidentList incidents={data.incidents} />
          <Space wrap>
            <Typography.Text>公开状态页</Typography.Text>
            <Switch
              aria-label="公开状态页"
              checked={page?.enabled}
              loading={toggle.isPending}
              onChange={(v) => toggle.mutate(v)}
            />
            <Typography.Text type="secondary">
              开启后任何人可通过链接查看该隧道的在线状态与可用率，不会显示地址、令牌或账户信息
            </Typography.Text>
          </Space>
          {page?.enabled && page.slug && (
            <Space direction="vertical">
              <Space wrap>
                <Typography.Link href={publicPageUrl(page.slug)} target="_blank" data-testid="public-status-link">
                  {publicPageUrl(page.slug)}
                </Typography.Link>
                <CopyButton text={publicPageUrl(page.slug)} />
              </Space>
              <Space wrap>
                <img src={badgeUrl(page.slug)} alt="状态徽章" height={20} />
                <Typography.Text code>{`![状态](${badgeUrl(page.slug)})`}</Typography.Text>
                <CopyButton text={`![状态](${badgeUrl(page.slug)})`} />
              </Space>
            </Space>
          )}
        </Space>
      )}
    </Card>
  );
}
