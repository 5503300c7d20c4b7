import { useQuery } from "@tanstack/react-query";
import { Alert, Card, List, Space, Tag, Typography } from "antd";
import { formatTime } from "@/lib/format";
import { StatusFrame } from "../components/StatusFrame";
import { UptimeBars } from "../components/UptimeBars";
import { providerStatusQuery } from "../uptime.api";

/** /status: every node's state and 90-day uptime, and the maintenance announced; no login. */
export function ProviderStatusPage() {
  const { data, isPending } = useQuery(providerStatusQuery());
  return (
    <StatusFrame>
      <Space direction="vertical" style={{ width: "100%" }} size="large">
        <Typography.Title level={3}>服务状态</Typography.Title>
        {data?.maintenance.map((m) => (
          <Alert
            key={m.id}
            type="warning"
            showIcon
            message={`计划维护：${m.title}`}
            description={`${formatTime(m.starts_at)} 至 ${formatTime(m.ends_at)}，涉及节点：${m.nodes.map((n) => n.name).join("、")}`}
          />
        ))}
        <Card loading={isPending}>
          <List
            dataSource={data?.nodes ?? []}
            locale={{ emptyText: "暂无节点" }}
            renderItem={(n) => (
              <List.Item key={n.node_id}>
                <Space direction="vertical" style={{ width: "100%" }}>
                  <Space>
                    <Typography.Text strong>{n.name}</Typography.Text>
                    {n.in_maintenance ? (
                      <Tag color="orange">维护中</Tag>
                    ) : (
                      <Tag color={n.online ? "green" : "red"}>{n.online ? "正常" : "故障"}</Tag>
                    )}
                  </Space>
                  <UptimeBars days={n.days} pct={n.pct} />
                </Space>
              </List.Item>
            )}
          />
        </Card>
      </Space>
    </StatusFrame>
  );
}
