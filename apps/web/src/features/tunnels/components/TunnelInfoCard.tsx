import type { TunnelDetail } from "@burrow/contract";
import { Card, Descriptions, Space, Switch, Tag } from "antd";
import { ProtocolTag } from "@/features/nodes/components/NodeTags";
import { formatBytes, formatTime } from "@/lib/format";
import { AddressList } from "./AddressList";
import { TunnelStatusTag } from "./TunnelTags";

interface TunnelInfoCardProps {
  tunnel: TunnelDetail;
  locked: boolean;
  toggling: boolean;
  onToggle: (enabled: boolean) => void;
}

/** The tunnel detail page's 基本信息: status, the on/off switch, addresses, traffic so far. */
export function TunnelInfoCard({ tunnel, locked, toggling, onToggle }: TunnelInfoCardProps) {
  return (
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
            loading={toggling}
            onChange={onToggle}
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
            {tunnel.proxy_protocol !== "off" ? <Tag>PROXY 协议 {tunnel.proxy_protocol}</Tag> : null}
            {!tunnel.use_encryption && !tunnel.use_compression && tunnel.proxy_protocol === "off" ? "-" : null}
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
  );
}
