import type { AdminNodeRow } from "@burrow/contract";
import { Space, Tag, Tooltip, Typography } from "antd";
import type { ResponsiveColumn, ResponsiveColumns } from "@/components/responsive-columns";
import { formatBytes, formatTime } from "@/lib/format";
import { NodeStatusTag, ProtocolTags } from "../components/NodeTags";

/**
 * /admin/node's columns. What an operator looks for first (issue 35 §5): status, the node, its
 * level, protocols, ports, then load, traffic and the last poll; the rest goes into the detail.
 */
export function nodeColumns(actions: ResponsiveColumn<AdminNodeRow>): ResponsiveColumns<AdminNodeRow> {
  return [
    {
      title: "状态",
      dataIndex: "status",
      width: 90,
      role: "status",
      render: (status: number, row) =>
        row.runtime.last_error ? (
          <Tooltip title={row.runtime.last_error}>
            <span>
              <NodeStatusTag status={status} />
            </span>
          </Tooltip>
        ) : (
          <NodeStatusTag status={status} />
        ),
    },
    { title: "ID", dataIndex: "node_id", width: 70, priority: 6 },
    {
      title: "节点",
      dataIndex: "name",
      width: 180,
      role: "title",
      render: (name: string, row) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text strong>{name}</Typography.Text>
          <Typography.Text type="secondary" copyable={{ text: row.host }}>
            {row.host}:{row.bind_port}
          </Typography.Text>
        </Space>
      ),
    },
    { title: "地区", dataIndex: "area_name", width: 100, priority: 5 },
    { title: "网络类型", dataIndex: "net_type_name", width: 100, priority: 5 },
    { title: "等级", dataIndex: "level_name", width: 90, priority: 2 },
    {
      title: "协议",
      dataIndex: "protocols",
      width: 150,
      priority: 2,
      render: (p: string[]) => <ProtocolTags protocols={p} />,
    },
    {
      title: "端口范围",
      key: "ports",
      width: 110,
      priority: 2,
      render: (_: unknown, row) => `${row.port_min}-${row.port_max}`,
    },
    {
      title: "负载",
      key: "load",
      width: 150,
      priority: 3,
      render: (_: unknown, row) => (
        <Typography.Text type="secondary">
          客户端 {row.load.clients} · 隧道 {row.load.tunnels} · 连接 {row.load.cur_conns}
        </Typography.Text>
      ),
    },
    {
      title: "今日流量（入/出）",
      key: "traffic",
      width: 150,
      priority: 3,
      render: (_: unknown, row) => `${formatBytes(row.runtime.traffic_in)} / ${formatBytes(row.runtime.traffic_out)}`,
    },
    {
      title: "frps / 最后轮询",
      key: "runtime",
      width: 170,
      priority: 4,
      render: (_: unknown, row) => (
        <Space orientation="vertical" size={0}>
          <span>{row.runtime.version ? `v${row.runtime.version}` : "-"}</span>
          <Typography.Text type="secondary">{formatTime(row.runtime.last_poll_at)}</Typography.Text>
          {row.agent_mode === 1 ? <AgentTag row={row} /> : null}
          {row.runtime.rollover_skew_at ? (
            <Tooltip
              title={`frps 的今日流量没有在北京时间零点清零（${formatTime(row.runtime.rollover_skew_at)}），其时区或时钟与北京时间不一致。该节点按计数器增量计费；请把 frps 所在机器的时区设为 Asia/Shanghai 并校准时钟。`}
            >
              <Tag color="warning" data-testid="rollover-skew">
                时区异常
              </Tag>
            </Tooltip>
          ) : null}
        </Space>
      ),
    },
    actions,
  ];
}

/** An agent-mode node's link: its agent's last contact, and whether it runs on its grace (console unreachable). */
function AgentTag({ row }: { row: AdminNodeRow }) {
  const { agent_seen_at, agent_grace, agent_grace_at } = row.runtime;
  if (agent_grace)
    return (
      <Tooltip
        title={`节点代理自 ${formatTime(agent_grace_at)} 起无法连接控制台，${agent_grace === "expired" ? "宽限期已过，按配置的策略处理新连接" : "正按本地副本继续服务（宽限期内）"}`}
      >
        <Tag color={agent_grace === "expired" ? "error" : "warning"} data-testid="agent-grace">
          {agent_grace === "expired" ? "代理宽限已过" : "代理宽限中"}
        </Tag>
      </Tooltip>
    );
  return (
    <Tooltip title={agent_seen_at ? `节点代理最后联系：${formatTime(agent_seen_at)}` : "节点代理从未连接控制台"}>
      <Tag color={agent_seen_at ? "blue" : "default"} data-testid="agent-contact">
        {agent_seen_at ? `代理 ${formatTime(agent_seen_at)}` : "代理未连接"}
      </Tag>
    </Tooltip>
  );
}
