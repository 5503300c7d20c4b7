import type { TunnelEventKind, TunnelEventRow } from "@burrow/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Button, Popconfirm, Tag, Typography } from "antd";
import { LinkButton } from "@/components/LinkButton";
import { PagedTableCard } from "@/components/PagedTableCard";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import { feedback } from "@/lib/feedback";
import { formatTime } from "@/lib/format";
import { freeTunnelSession, tunnelEventsQuery, tunnelsKeys } from "../tunnels.api";

const KIND: Record<TunnelEventKind, { label: string; color?: string }> = {
  login_ok: { label: "登录", color: "green" },
  login_refused: { label: "登录被拒", color: "red" },
  proxy_ok: { label: "隧道上线", color: "green" },
  proxy_refused: { label: "隧道被拒", color: "red" },
  proxy_held: { label: "被占用", color: "orange" },
  ping_refused: { label: "心跳被拒", color: "red" },
  visitor_refused: { label: "访客被拒", color: "orange" },
  poller: { label: "节点检测" },
  locked: { label: "锁定", color: "red" },
  unlocked: { label: "解锁", color: "blue" },
  session_freed: { label: "强制下线", color: "purple" },
  domain_removed: { label: "域名移除", color: "orange" },
};

/** The element holding the frpc config (the "download again" fix scrolls to it). */
export const FRPC_CONFIG_ANCHOR = "frpc-config";

interface Props {
  tunId: number;
}

/** The 强制下线 button with its confirmation. */
function FreeSessionButton({ tunId, small }: Props & { small?: boolean }) {
  const queryClient = useQueryClient();
  const free = useMutation({
    mutationFn: () => freeTunnelSession(tunId),
    onSuccess: async () => {
      feedback.success("已强制下线：占用隧道的会话将在下一次心跳时断开");
      await queryClient.invalidateQueries({ queryKey: tunnelsKeys.detail(tunId) });
    },
  });
  return (
    <Popconfirm
      title="强制下线占用此隧道的会话？"
      description="该会话的下一次心跳将被拒绝，10 分钟内不能再连接；新启动的 frpc 随后即可连上。"
      okText="强制下线"
      cancelText="取消"
      onConfirm={() => free.mutateAsync().catch(() => undefined)}
    >
      <Button danger size={small ? "small" : "middle"} loading={free.isPending}>
        强制下线
      </Button>
    </Popconfirm>
  );
}

/** What the customer can do about a row: the fix the server named. */
function Fix({ row, tunId }: { row: TunnelEventRow; tunId: number }) {
  switch (row.fix) {
    case "config":
      return (
        <Button
          size="small"
          onClick={() => document.getElementById(FRPC_CONFIG_ANCHOR)?.scrollIntoView({ behavior: "smooth" })}
        >
          重新下载配置
        </Button>
      );
    case "traffic":
      return (
        <LinkButton size="small" to="/purchase/plan">
          购买流量
        </LinkButton>
      );
    case "free_session":
      return <FreeSessionButton tunId={tunId} small />;
    case "appeal":
      return (
        <LinkButton size="small" to={`/help/ticket?appeal=${tunId}`}>
          申诉
        </LinkButton>
      );
    default:
      return null;
  }
}

/**
 * 连接诊断: every decision the console made about the tunnel in the last 7 days (its owner's
 * logins and heartbeats on the node, the proxy, refused visitors, operators' locks), newest first,
 * identical ones within a minute as one row with a count, each refusal with its fix.
 */
export function TunnelDoctorCard({ tunId }: Props) {
  const columns: ResponsiveColumns<TunnelEventRow> = [
    { title: "时间", role: "title", dataIndex: "last_at", width: 190, render: (v: string) => formatTime(v) },
    {
      title: "事件",
      priority: 1,
      dataIndex: "kind",
      width: 110,
      render: (k: TunnelEventKind) => <Tag color={KIND[k]?.color}>{KIND[k]?.label ?? k}</Tag>,
    },
    {
      title: "原因（frpc 收到的原文）",
      priority: 1,
      dataIndex: "reason",
      render: (v: string) => <Typography.Text copyable={{ text: v }}>{v}</Typography.Text>,
    },
    { title: "次数", priority: 2, dataIndex: "count", width: 70, render: (n: number) => `×${n}` },
    { title: "处理", role: "action", key: "fix", width: 130, render: (_: unknown, r) => <Fix row={r} tunId={tunId} /> },
  ];
  return (
    <PagedTableCard
      title="连接诊断"
      className="tunnel-doctor-card"
      extra={<FreeSessionButton tunId={tunId} />}
      columns={columns}
      query={(page, size) => tunnelEventsQuery(tunId, page, size)}
    />
  );
}
