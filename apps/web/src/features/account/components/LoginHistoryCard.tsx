import type { LoginLog } from "@burrow/contract";
import type { TableColumnsType } from "antd";
import { PagedTableCard } from "@/components/PagedTableCard";
import { formatTime } from "@/lib/format";
import { loginListQuery } from "../account.api";

export const loginLogColumns: TableColumnsType<LoginLog> = [
  { title: "登录时间", dataIndex: "created_at", width: 190, render: (v: string) => formatTime(v) },
  { title: "IP", dataIndex: "ip", width: 160 },
  { title: "设备", dataIndex: "user_agent", ellipsis: true },
];

/** The user's own sign-in history, paged on the server. */
export function LoginHistoryCard() {
  return <PagedTableCard title="登录记录" columns={loginLogColumns} query={loginListQuery} scrollX={640} />;
}
