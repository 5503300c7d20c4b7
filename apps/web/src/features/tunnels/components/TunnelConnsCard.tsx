import type { ConnRow } from "@burrow/contract";
import { PagedTableCard } from "@/components/PagedTableCard";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import { formatTime } from "@/lib/format";
import { tunnelConnsQuery } from "../tunnels.api";

const columns: ResponsiveColumns<ConnRow> = [
  { title: "最近连接", role: "title", dataIndex: "last_at", width: 190, render: (v: string) => formatTime(v) },
  { title: "访客 IP", priority: 2, dataIndex: "remote_addr" },
  { title: "连接数", priority: 2, dataIndex: "conn_count", width: 90 },
  { title: "类型", priority: 3, dataIndex: "proxy_type", width: 100 },
];

/** The tunnel's recent visitors (frps NewUserConn, per IP and second), newest first. */
export function TunnelConnsCard({ tunId }: { tunId: number }) {
  return (
    <PagedTableCard title="最近连接" columns={columns} query={(page, size) => tunnelConnsQuery(tunId, page, size)} />
  );
}
