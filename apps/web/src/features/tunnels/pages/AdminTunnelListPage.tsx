import { type AdminTunnelRow, TunnelStatus, TunnelStatusLabel } from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Form, Input, Popconfirm, Space, Typography } from "antd";
import { useState } from "react";
import { FormModal } from "@/components/FormModal";
import { ListTableCard } from "@/components/ListTableCard";
import { PageContainer } from "@/components/PageContainer";
import { ReasonField } from "@/components/ReasonField";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import { SearchCard } from "@/components/SearchCard";
import { IdFilter, TextFilter } from "@/components/SearchFields";
import { ALL, adminNodeListQuery } from "@/features/nodes/nodes.api";
import { useAccess } from "@/hooks/useAccess";
import { useUrlFilters } from "@/hooks/useUrlFilters";
import { feedback } from "@/lib/feedback";
import { labelOptions } from "@/lib/options";
import { tunnelNameRules } from "../components/TunnelFields";
import { TunnelFilterFields } from "../components/TunnelFilterFields";
import { adminTunnelListQuery, adminUpdateTunnel, tunnelsKeys } from "../tunnels.api";
import { adminTunnelColumns } from "./AdminTunnelListPage.columns";

const FILTERS = {
  uid: "int",
  phone: "text",
  node_id: "int",
  protocol: "text",
  status: "int",
  name: "text",
} as const;

type Action = { kind: "lock" | "reason" | "rename"; row: AdminTunnelRow };

const actionTitle: Record<Action["kind"], string> = { lock: "锁定隧道", reason: "修改锁定原因", rename: "重命名隧道" };

/** /admin/tun: every customer's tunnels; lock with a reason, unlock, rename, delete. */
export function AdminTunnelListPage() {
  const queryClient = useQueryClient();
  const { canWrite } = useAccess();
  const [form] = Form.useForm();
  const { filters, search, reset, pagination } = useUrlFilters(FILTERS, form);
  const { data, isFetching } = useQuery(
    adminTunnelListQuery({ ...filters, protocol: filters.protocol as AdminTunnelRow["protocol"] | undefined }),
  );
  const nodes = useQuery(adminNodeListQuery(ALL));
  const [action, setAction] = useState<Action | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: tunnelsKeys.all });
  const patch = useMutation({
    mutationFn: adminUpdateTunnel,
    onSuccess: async (_t, body) => {
      feedback.success(body.status === TunnelStatus.Deleted ? "隧道已删除" : "隧道已解锁");
      await refresh();
    },
  });

  const submitAction = async (v: { banned_reason?: string; tun_name?: string }) => {
    if (!action) return;
    const tun_id = action.row.tun_id;
    if (action.kind === "rename") await adminUpdateTunnel({ tun_id, tun_name: v.tun_name?.trim() });
    else if (action.kind === "lock")
      await adminUpdateTunnel({ tun_id, status: 3, banned_reason: v.banned_reason?.trim() });
    else await adminUpdateTunnel({ tun_id, banned_reason: v.banned_reason?.trim() });
    await refresh();
  };

  const columns: ResponsiveColumns<AdminTunnelRow> = [...adminTunnelColumns];
  if (canWrite) {
    columns.push({
      title: "操作",
      key: "actions",
      width: 210,
      render: (_: unknown, row) => {
        if (row.status === TunnelStatus.Deleted) return <Typography.Text type="secondary">已删除</Typography.Text>;
        const locked = row.status === TunnelStatus.Locked;
        return (
          <Space size={0} wrap>
            {locked ? (
              <>
                <Popconfirm
                  title="解锁隧道？"
                  description="解锁后锁定原因会被清除，用户可以重新连接。"
                  okText="解锁"
                  cancelText="取消"
                  onConfirm={() => patch.mutateAsync({ tun_id: row.tun_id, status: 2 }).catch(() => undefined)}
                >
                  <Button type="link" size="small">
                    解锁
                  </Button>
                </Popconfirm>
                <Button type="link" size="small" onClick={() => setAction({ kind: "reason", row })}>
                  改原因
                </Button>
              </>
            ) : (
              <Button type="link" size="small" danger onClick={() => setAction({ kind: "lock", row })}>
                锁定
              </Button>
            )}
            <Button type="link" size="small" onClick={() => setAction({ kind: "rename", row })}>
              重命名
            </Button>
            <Popconfirm
              title={`删除隧道「${row.tun_name}」？`}
              description="删除后用户的这条隧道将无法再连接。"
              okText="删除"
              cancelText="取消"
              okButtonProps={{ danger: true }}
              onConfirm={() => patch.mutateAsync({ tun_id: row.tun_id, status: -1 }).catch(() => undefined)}
            >
              <Button type="link" size="small" danger>
                删除
              </Button>
            </Popconfirm>
          </Space>
        );
      },
    });
  }

  return (
    <PageContainer title="隧道管理">
      <SearchCard form={form} onFinish={search} onReset={reset}>
        <IdFilter name="uid" label="UID" width={120} />
        <TextFilter name="phone" label="手机号" max={20} placeholder="支持部分号码" width={150} />
        <TunnelFilterFields nodes={nodes.data?.list} statusOptions={labelOptions(TunnelStatusLabel)} />
      </SearchCard>
      <ListTableCard columns={columns} data={data} loading={isFetching} pagination={pagination} rowKey="tun_id" />
      <FormModal<{ banned_reason?: string; tun_name?: string }>
        open={action !== null}
        title={action ? actionTitle[action.kind] : ""}
        okText={action?.kind === "lock" ? "锁定" : "保存"}
        initialValues={
          action?.kind === "rename"
            ? { tun_name: action.row.tun_name }
            : { banned_reason: action?.row.banned_reason ?? "" }
        }
        successText={action?.kind === "lock" ? "隧道已锁定" : "已保存"}
        onSubmit={submitAction}
        onClose={() => setAction(null)}
      >
        {action ? (
          <Typography.Paragraph type="secondary">
            隧道「{action.row.tun_name}」（#{action.row.tun_id}），用户 {action.row.phone || `UID ${action.row.uid}`}
            {action.kind === "lock" ? "。锁定后该隧道会立即断开，且无法再连接，用户会看到锁定原因。" : ""}
          </Typography.Paragraph>
        ) : null}
        {action?.kind === "rename" ? (
          <Form.Item name="tun_name" label="隧道名称" rules={tunnelNameRules}>
            <Input maxLength={32} />
          </Form.Item>
        ) : (
          <ReasonField name="banned_reason" label="锁定原因" placeholder="将展示给用户并记录在审计日志中" />
        )}
      </FormModal>
    </PageContainer>
  );
}
