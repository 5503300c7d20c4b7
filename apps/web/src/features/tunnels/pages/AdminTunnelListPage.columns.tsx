import type { AdminTunnelRow } from "@burrow/contract";
import { Space, Typography } from "antd";
import { Link } from "react-router";
import { statusColumn, timeColumn } from "@/components/ListColumns";
import type { ResponsiveColumns } from "@/components/responsive-columns";
import { ProtocolTag } from "@/features/nodes/components/NodeTags";
import { ADMIN_BASE } from "@/lib/access";
import { formatBytes } from "@/lib/format";
import { AddressList } from "../components/AddressList";
import { TunnelStatusTag } from "../components/TunnelTags";

/** /admin/tun's columns (without 操作): status, name, owner, node and protocol first (issue 35 §5). */
export const adminTunnelColumns: ResponsiveColumns<AdminTunnelRow> = [
  { title: "ID", priority: 6, dataIndex: "tun_id", width: 70 },
  { title: "隧道名称", role: "title", dataIndex: "tun_name", width: 150 },
  {
    title: "用户",
    priority: 2,
    key: "owner",
    width: 160,
    render: (_: unknown, row) => (
      <Space orientation="vertical" size={0}>
        <Link to={`${ADMIN_BASE}/usermgr/list/${row.uid}`}>{row.phone || `UID ${row.uid}`}</Link>
        <Typography.Text type="secondary">UID {row.uid}</Typography.Text>
      </Space>
    ),
  },
  // A lock's reason is part of the status: an operator sees why without opening the row.
  statusColumn("status", 140, (s: number, row) => (
    <Space orientation="vertical" size={0}>
      <TunnelStatusTag status={s} enabled={row.enabled} />
      {row.banned_reason ? (
        <Typography.Text type="secondary" ellipsis={{ tooltip: row.banned_reason }} style={{ maxWidth: 130 }}>
          {row.banned_reason}
        </Typography.Text>
      ) : null}
    </Space>
  )),
  { title: "节点", priority: 2, dataIndex: "node_name", width: 130 },
  {
    title: "协议",
    priority: 2,
    dataIndex: "protocol",
    width: 80,
    render: (p: string) => <ProtocolTag protocol={p} />,
  },
  {
    title: "访问地址",
    priority: 3,
    dataIndex: "addresses",
    width: 240,
    render: (a: string[]) => <AddressList addresses={a} />,
  },
  {
    title: "本地服务",
    priority: 4,
    key: "local",
    width: 150,
    render: (_: unknown, row) => `${row.local_ip}:${row.local_port}`,
  },
  { title: "连接数", priority: 3, dataIndex: "cur_conns", width: 80 },
  {
    title: "今日流量（入/出）",
    priority: 3,
    key: "today",
    width: 170,
    render: (_: unknown, row) => `${formatBytes(row.today_in)} / ${formatBytes(row.today_out)}`,
  },
  timeColumn("最后在线", "last_online_at", { priority: 4, width: 180 }),
  timeColumn("创建时间", "created_at", { priority: 5, width: 180 }),
];
