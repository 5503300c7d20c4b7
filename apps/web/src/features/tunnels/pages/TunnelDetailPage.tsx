import { isSecretProtocol, TunnelStatus } from "@burrow/contract";
import { RiArrowLeftLine, RiDeleteBinLine, RiEditLine } from "@remixicon/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Popconfirm, Result, Space } from "antd";
import { useState } from "react";
import { useNavigate, useParams } from "react-router";
import { FormModal } from "@/components/FormModal";
import { LinkButton } from "@/components/LinkButton";
import { PageContainer } from "@/components/PageContainer";
import { LaunchCard } from "@/features/launch/components/LaunchCard";
import { ALL, userNodeListQuery } from "@/features/nodes/nodes.api";
import { TunnelReachCard } from "@/features/reach/components/TunnelReachCard";
import { TunnelUptimeCard } from "@/features/uptime/components/TunnelUptimeCard";
import { feedback } from "@/lib/feedback";
import { FrpcConfigCard } from "../components/FrpcConfigCard";
import { SecretTunnelCard } from "../components/SecretTunnelCard";
import { TunnelConnsCard } from "../components/TunnelConnsCard";
import { FRPC_CONFIG_ANCHOR, TunnelDoctorCard } from "../components/TunnelDoctorCard";
import { TunnelFields } from "../components/TunnelFields";
import { TunnelInfoCard } from "../components/TunnelInfoCard";
import { TunnelScheduleCard } from "../components/TunnelScheduleCard";
import { TunnelShieldCard } from "../components/TunnelShieldCard";
import { TunnelTrafficCard } from "../components/TunnelTrafficCard";
import { TUNNEL_FIELD_MAP, type TunnelFormValues, toUpdateBody, tunnelToForm } from "../tunnel-form";
import { deleteTunnel, tunnelDetailQuery, tunnelsKeys, updateTunnel } from "../tunnels.api";

/** /tun/list/:tunid: the tunnel, its frpc config, 连接诊断, traffic and connections; edit, on/off, delete. */
export function TunnelDetailPage() {
  const params = useParams();
  const tunId = Number(params.tunid);
  const valid = Number.isInteger(tunId) && tunId > 0;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const { data: tunnel, isPending, isError } = useQuery({ ...tunnelDetailQuery(tunId), enabled: valid });
  const nodes = useQuery({ ...userNodeListQuery(ALL), enabled: editing });

  const refresh = () => queryClient.invalidateQueries({ queryKey: tunnelsKeys.all });
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => updateTunnel({ tun_id: tunId, enabled }),
    onSuccess: async (t) => {
      feedback.success(t.enabled ? "隧道已启用" : "隧道已停用");
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteTunnel(tunId),
    onSuccess: async () => {
      feedback.success("隧道已删除");
      queryClient.removeQueries({ queryKey: tunnelsKeys.detail(tunId) });
      await queryClient.invalidateQueries({ queryKey: tunnelsKeys.lists() });
      void navigate("/tun/list");
    },
  });

  const back = (
    <LinkButton icon={<RiArrowLeftLine size={16} />} to="/tun/list">
      返回列表
    </LinkButton>
  );
  if (!valid || isError) {
    return (
      <PageContainer title="隧道详情" extra={back}>
        <Result status="404" title="隧道不存在" subTitle={`未找到编号为 ${params.tunid} 的隧道`} />
      </PageContainer>
    );
  }
  if (isPending || !tunnel) {
    return (
      <PageContainer title="隧道详情" extra={back}>
        <Card loading />
      </PageContainer>
    );
  }

  const locked = tunnel.status === TunnelStatus.Locked;
  const save = async (v: TunnelFormValues) => {
    await updateTunnel(toUpdateBody(tunId, { ...v, protocol: tunnel.protocol, node_id: tunnel.node_id }));
    await refresh();
  };

  return (
    <PageContainer
      title={`隧道详情 · ${tunnel.tun_name}`}
      extra={
        <Space wrap>
          {back}
          {locked ? null : (
            <Button icon={<RiEditLine size={16} />} onClick={() => setEditing(true)}>
              编辑
            </Button>
          )}
          <Popconfirm
            title={`删除隧道「${tunnel.tun_name}」？`}
            description="删除后远程端口或域名会被释放，frpc 中的这条隧道将无法连接。"
            okText="删除"
            cancelText="取消"
            okButtonProps={{ danger: true }}
            onConfirm={() => remove.mutateAsync().catch(() => undefined)}
            disabled={locked}
          >
            <Button danger icon={<RiDeleteBinLine size={16} />} disabled={locked} loading={remove.isPending}>
              删除
            </Button>
          </Popconfirm>
        </Space>
      }
    >
      {locked ? (
        <Alert
          type="error"
          showIcon
          title="隧道已锁定"
          description={`锁定原因：${tunnel.banned_reason || "未说明"}。如认为是误判，可以提交申诉。`}
          action={
            <LinkButton danger to={`/help/ticket?appeal=${tunId}`}>
              申诉
            </LinkButton>
          }
        />
      ) : null}
      <TunnelInfoCard
        tunnel={tunnel}
        locked={locked}
        toggling={toggle.isPending}
        onToggle={(on) => toggle.mutate(on)}
      />
      <TunnelScheduleCard tunnel={tunnel} disabled={locked} onChanged={refresh} />
      {locked ? null : (
        <div id={FRPC_CONFIG_ANCHOR}>
          <FrpcConfigCard tunId={tunId} protocol={tunnel.protocol} />
        </div>
      )}
      {locked ? null : <LaunchCard nodeId={tunnel.node_id} />}
      {isSecretProtocol(tunnel.protocol) && !locked ? <SecretTunnelCard tunnel={tunnel} /> : null}
      {isSecretProtocol(tunnel.protocol) ? null : <TunnelReachCard tunId={tunId} />}
      <TunnelDoctorCard tunId={tunId} />
      <TunnelShieldCard tunId={tunId} disabled={locked} protocol={tunnel.protocol} />
      <TunnelUptimeCard tunId={tunId} />
      <TunnelTrafficCard tunId={tunId} />
      <TunnelConnsCard tunId={tunId} />
      <FormModal<TunnelFormValues>
        open={editing}
        title="编辑隧道"
        width={760}
        initialValues={tunnelToForm(tunnel)}
        successText="隧道已保存"
        fieldMap={TUNNEL_FIELD_MAP}
        onSubmit={save}
        onClose={() => setEditing(false)}
      >
        <TunnelFields mode="edit" nodes={nodes.data?.list ?? []} nodesLoading={nodes.isPending} />
      </FormModal>
    </PageContainer>
  );
}
