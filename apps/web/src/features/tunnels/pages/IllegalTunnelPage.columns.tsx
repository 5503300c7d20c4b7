import {
  type IllegalFlagRow,
  IllegalSourceLabel,
  IllegalStatus,
  IllegalStatusLabel,
  TunnelStatus,
} from "@burrow/contract";
import { Button, Popconfirm, Space, Tag, Typography } from "antd";
import { statusColumn, timeColumn } from "@/components/ListColumns";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import { phoneText } from "@/lib/format";
import { AddressList } from "../components/AddressList";
import { TunnelStatusTag } from "../components/TunnelTags";

const flagColor: Record<number, string> = {
  [IllegalStatus.Pending]: "warning",
  [IllegalStatus.Banned]: "error",
  [IllegalStatus.Cleared]: "default",
};

/** The flag list's columns; the actions (ban, clear, close) only for an operator who may write. */
export function illegalFlagColumns({
  canWrite,
  onBan,
  onClear,
}: {
  canWrite: boolean;
  onBan: (row: IllegalFlagRow) => void;
  onClear: (row: IllegalFlagRow) => Promise<unknown>;
}): ResponsiveColumns<IllegalFlagRow> {
  const columns: ResponsiveColumns<IllegalFlagRow> = [
    { title: "ID", priority: 6, dataIndex: "id", width: 70 },
    {
      title: "隧道",
      role: "title",
      key: "tunnel",
      width: 200,
      render: (_: unknown, row) => (
        <Space orientation="vertical" size={0}>
          <span>
            <Typography.Text delete={row.tun_status === TunnelStatus.Deleted}>{row.tun_name}</Typography.Text>{" "}
            <Typography.Text type="secondary">#{row.tun_id}</Typography.Text>
          </span>
          <TunnelStatusTag status={row.tun_status} />
        </Space>
      ),
    },
    {
      title: "用户",
      priority: 2,
      key: "user",
      width: 150,
      render: (_: unknown, row) => `${phoneText(row.phone)} (UID ${row.uid})`,
    },
    { title: "节点", priority: 3, dataIndex: "node_name", width: 120 },
    {
      title: "地址",
      priority: 3,
      dataIndex: "addresses",
      width: 220,
      render: (a: string[]) => <AddressList addresses={a} />,
    },
    {
      title: "来源",
      priority: 3,
      dataIndex: "source",
      width: 100,
      render: (s: string, row) => (
        <Space orientation="vertical" size={0}>
          <Tag>{IllegalSourceLabel[s] ?? s}</Tag>
          {row.reporter ? <Typography.Text type="secondary">{row.reporter}</Typography.Text> : null}
        </Space>
      ),
    },
    { title: "原因", priority: 2, dataIndex: "reason", width: 220, ellipsis: { showTitle: true } },
    statusColumn(
      "status",
      100,
      (s: number) => <Tag color={flagColor[s] ?? "default"}>{IllegalStatusLabel[s] ?? s}</Tag>,
      "处理状态",
    ),
    timeColumn("发现时间", "created_at", { priority: 3, width: 180 }),
    timeColumn("处理时间", "handled_at", { priority: 5, width: 180 }),
  ];
  if (canWrite) {
    columns.push({
      title: "操作",
      key: "actions",
      width: 130,
      render: (_: unknown, row) =>
        row.status === IllegalStatus.Pending && row.tun_status === TunnelStatus.Deleted ? (
          // Nothing left to ban or keep available: the record can only be closed.
          <Popconfirm
            title="关闭该记录？"
            description="隧道已删除，无需封禁；记录标为已处理。"
            okText="关闭记录"
            cancelText="取消"
            onConfirm={() => onClear(row)}
          >
            <Button type="link" size="small">
              关闭记录
            </Button>
          </Popconfirm>
        ) : row.status === IllegalStatus.Pending ? (
          <Space size={0}>
            <Button type="link" size="small" danger onClick={() => onBan(row)}>
              封禁
            </Button>
            <Popconfirm
              title="忽略该记录？"
              description="隧道保持可用；修改隧道后会按规则重新检测。"
              okText="忽略"
              cancelText="取消"
              onConfirm={() => onClear(row)}
            >
              <Button type="link" size="small">
                忽略
              </Button>
            </Popconfirm>
          </Space>
        ) : (
          <Typography.Text type="secondary">已处理</Typography.Text>
        ),
    });
  }
  return columns;
}
