import { useQuery } from "@tanstack/react-query";
import { Card, Result, Space, Tag, Typography } from "antd";
import { useParams } from "react-router";
import { IncidentList } from "../components/IncidentList";
import { StatusFrame } from "../components/StatusFrame";
import { UptimeBars } from "../components/UptimeBars";
import { publicStatusQuery } from "../uptime.api";

/** /status/t/:slug: a tunnel's public status page (its owner turned it on); no login. */
export function PublicTunnelStatusPage() {
  const slug = useParams().slug ?? "";
  const { data, isPending, isError } = useQuery(publicStatusQuery(slug));
  return (
    <StatusFrame>
      {isError ? (
        <Result status="404" title="状态页不存在" subTitle="该状态页未公开或已关闭" />
      ) : (
        <Card loading={isPending} title={data && <Space>{data.name} 的运行状态</Space>}>
          {data && (
            <Space direction="vertical" style={{ width: "100%" }} size="large">
              <Space>
                <Typography.Text>当前状态</Typography.Text>
                <Tag color={data.online ? "green" : "red"} data-testid="public-online">
                  {data.online ? "在线" : "离线"}
                </Tag>
              </Space>
              <UptimeBars days={data.days} pct={data.pct} />
              <IncidentList incidents={data.incidents} />
            </Space>
          )}
        </Card>
      )}
    </StatusFrame>
  );
}
