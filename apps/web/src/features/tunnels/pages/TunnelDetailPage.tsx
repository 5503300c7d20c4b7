import { TunnelStatus } from "@burrow/contract";
import { RiArrowLeftLine, RiDeleteBinLine, RiEditLine } from "@remixicon/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Descriptions, Popconfirm, Result, Segmented, Space, Switch, Tag } from "antd";
import { useState } from "react";
import { useNavigate, useParams } from "react-router";
import { FormModal } from "@/components/FormModal";
import { LinkButton } from "@/components/LinkButton";
import { PageContainer } from "@/components/PageContainer";
import { ProtocolTag } from "@/features/nodes/components/NodeTags";
import { ALL, userNodeListQuery } from "@/features/nodes/nodes.api";
import { TrafficChart } from "@/features/traffic/components/TrafficChart";
import { feedback } from "@/lib/feedback";
import { formatBytes, formatTime } from "@/lib/format";
import { AddressList } from "../components/AddressList";
import { FrpcConfigCard } from "../components/FrpcConfigCard";
import { TunnelConnsCard } from "../components/TunnelConnsCard";
import { FRPC_CONFIG_ANCHOR, TunnelDoctorCard } from "../components/TunnelDoctorCard";
import { TunnelFields } from "../components/TunnelFields";
import { TunnelStatusTag } from "../components/TunnelTags";
import { TUNNEL_FIELD_MAP, type TunnelFormValues, toUpdateBody, tunnelToForm } from "../tunnel-form";
import { deleteTunnel, tunnelDetailQuery, tunnelsKeys, tunnelTrafficQuery, updateTunnel } from "../tunnels.api";

/** The traffic chart's range, in days. */
function TunnelTrafficCard({ tunId }: { tunId: number }) {
  const [days, setDays] = useState(7);
  const { data } = useQuery(tunnelTrafficQuery(tunId, days));
  return (
    <Card
      title="流量趋势"
      extra={
        <Segmented
          value={days}
          onChange={(v) => setDays(Number(v))}
          options={[
            { value: 7, label: "近 7 天" },
            { value: 30, label: "近 30 天" },
          ]}
        />
      }
    >
      <TrafficChart days={data?.days ?? []} label={`隧道近 ${days} 天流量`} />
    </Card>
  );
}

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
      <Card title="基本信息" className="tunnel-info-card">
        <Descriptions column={{ xs: 1, sm: 2, xl: 3 }} size="small">
          <Descriptions.Item label="状态">
            <TunnelStatusTag status={tunnel.status} enabled={tunnel.enabled} />
          </Descriptions.Item>
          <Descriptions.Item label="启用">
            <Switch
              aria-label="启用隧道"
              checked={tunnel.enabled}
              disabled={locked}
              loading={toggle.isPending}
              onChange={(on) => toggle.mutate(on)}
            />
          </Descriptions.Item>
          <Descriptions.Item label="协议">
            <ProtocolTag protocol={tunnel.protocol} />
          </Descriptions.Item>
          <Descriptions.Item label="节点">{tunnel.node_name}</Descriptions.Item>
          <Descriptions.Item label="本地服务">
            {tunnel.local_ip}:{tunnel.local_port}
          </Descriptions.Item>
          <Descriptions.Item label="访问地址">
            <AddressList addresses={tunnel.addresses} />
          </Descriptions.Item>
          <Descriptions.Item label="传输">
            <Space size={4}>
              {tunnel.use_encryption ? <Tag>加密</Tag> : null}
              {tunnel.use_compression ? <Tag>压缩</Tag> : null}
              {!tunnel.use_encryption && !tunnel.use_compression ? "-" : null}
            </Space>
          </Descriptions.Item>
          <Descriptions.Item label="带宽">
            {tunnel.bandwidth > 0 ? `${tunnel.bandwidth} Mbps` : "套餐带宽"}
          </Descriptions.Item>
          <Descriptions.Item label="当前连接">{tunnel.cur_conns}</Descriptions.Item>
          <Descriptions.Item label="今日流量（入/出）">
            {formatBytes(tunnel.today_in)} / {formatBytes(tunnel.today_out)}
          </Descriptions.Item>
          <Descriptions.Item label="累计流量（入/出）">
            {formatBytes(tunnel.traffic_in)} / {formatBytes(tunnel.traffic_out)}
          </Descriptions.Item>
          <Descriptions.Item label="最后在线">{formatTime(tunnel.last_online_at)}</Descriptions.Item>
          <Descriptions.Item label="创建时间">{formatTime(tunnel.created_at)}</Descriptions.Item>
          <Descriptions.Item label="frp 代理名">{tunnel.proxy_name}</Descriptions.Item>
        </Descriptions>
      </Card>
      {locked ? null : (
        <div id={FRPC_CONFIG_ANCHOR}>
          <FrpcConfigCard tunId={tunId} protocol={tunnel.protocol} />
        </div>
      )}
      <TunnelDoctorCard tunId={tunId} />
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
