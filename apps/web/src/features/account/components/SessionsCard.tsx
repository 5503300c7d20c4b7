import type { SessionInfo } from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Modal, Tag } from "antd";
import { timeColumn } from "@/components/ListColumns";
import { type ResponsiveColumns, ResponsiveTable } from "@/components/ResponsiveTable";
import { feedback } from "@/lib/feedback";
import { revokeOtherSessions, revokeSession, securityKeys, sessionsQuery } from "../account.api";

/** 登录设备: the account's sessions in force, each can be signed out; or all but this one. */
export function SessionsCard() {
  const queryClient = useQueryClient();
  const [modal, holder] = Modal.useModal();
  const { data, isLoading } = useQuery(sessionsQuery());
  const refresh = () => queryClient.invalidateQueries({ queryKey: securityKeys.sessions() });
  const revoke = useMutation({
    mutationFn: revokeSession,
    onSuccess: () => {
      feedback.success("已退出该设备");
      void refresh();
    },
  });
  const others = useMutation({
    mutationFn: revokeOtherSessions,
    onSuccess: () => {
      feedback.success("已退出其他所有设备");
      void refresh();
    },
  });

  const columns: ResponsiveColumns<SessionInfo> = [
    {
      title: "设备",
      role: "title",
      key: "device",
      render: (_, r) => (
        <span>
          {r.device} {r.current ? <Tag color="processing">当前设备</Tag> : null}
        </span>
      ),
    },
    { title: "IP", priority: 2, dataIndex: "ip", width: 160 },
    timeColumn("登录时间", "created_at", { priority: 3, width: 180 }),
    timeColumn("最近活动", "last_seen_at", { priority: 2, width: 180 }),
    {
      title: "操作",
      key: "actions",
      width: 100,
      render: (_, r) =>
        r.current ? null : (
          <Button
            size="small"
            danger
            loading={revoke.isPending && revoke.variables === r.id}
            onClick={() => revoke.mutate(r.id)}
          >
            退出
          </Button>
        ),
    },
  ];
  const hasOthers = (data ?? []).some((s) => !s.current);
  return (
    <Card
      title="登录设备"
      extra={
        <Button
          danger
          disabled={!hasOthers}
          loading={others.isPending}
          onClick={() =>
            modal.confirm({
              title: "退出其他所有设备？",
              content: "除当前设备外，所有已登录的设备都需重新登录。",
              okText: "全部退出",
              okButtonProps: { danger: true },
              cancelText: "取消",
              onOk: () => others.mutateAsync().catch(() => undefined),
            })
          }
        >
          退出其他设备
        </Button>
      }
    >
      {holder}
      <ResponsiveTable rowKey="id" columns={columns} dataSource={data ?? []} loading={isLoading} pagination={false} />
    </Card>
  );
}
