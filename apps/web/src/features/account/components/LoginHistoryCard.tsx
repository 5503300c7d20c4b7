import type { LoginLog } from "@burrow/contract";
import { PagedTableCard } from "@/components/PagedTableCard";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import { formatTime } from "@/lib/format";
import { loginListQuery } from "../account.api";

const METHOD_LABEL: Record<string, string> = {
  password: "密码",
  register: "注册",
  sms: "短信验证（绑定第三方）",
  oidc: "第三方",
  passkey: "通行密钥",
};

/** How the session was opened: 密码, or the provider's name for a third-party sign-in. */
export const loginMethodText = (r: Pick<LoginLog, "method" | "provider">): string => {
  const label = METHOD_LABEL[r.method] ?? r.method;
  if (r.method === "oidc" && r.provider) return `第三方：${r.provider}`;
  return r.provider ? `${label} · ${r.provider}` : label;
};

export const loginLogColumns: ResponsiveColumns<LoginLog> = [
  { title: "登录时间", role: "title", dataIndex: "created_at", width: 190, render: (v: string) => formatTime(v) },
  { title: "方式", priority: 2, key: "method", width: 160, render: (_, r) => loginMethodText(r) },
  { title: "IP", priority: 2, dataIndex: "ip", width: 160 },
  { title: "设备", priority: 3, dataIndex: "user_agent", ellipsis: true },
];

/** The user's own sign-in history, paged on the server. */
export function LoginHistoryCard() {
  return <PagedTableCard title="登录记录" columns={loginLogColumns} query={loginListQuery} />;
}
