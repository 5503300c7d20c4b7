import type { TunnelView, UserNodeRow } from "@burrow/contract";
import { Form, InputNumber, Select, Typography } from "antd";
import { FormModal } from "@/components/FormModal";
import { fieldRules } from "@/lib/rules";
import { isWebProtocol } from "../tunnel-form";
import { moveTunnel } from "../tunnels.api";

interface MoveValues {
  node_id: number;
  remote_port?: number | null;
}

export interface MoveTunnelModalProps {
  /** the tunnel to move; null: closed */
  tunnel: TunnelView | null;
  nodes: UserNodeRow[];
  onClose: () => void;
  onMoved: () => Promise<unknown>;
}

/**
 * 迁移节点: the tunnel to another node. Its port (tcp/udp; blank: a random free one) and domains
 * are checked there as on creation; the customer downloads the new frpc.toml afterwards.
 */
export function MoveTunnelModal({ tunnel, nodes, onClose, onMoved }: MoveTunnelModalProps) {
  const web = isWebProtocol(tunnel?.protocol);
  const targets = nodes.filter(
    (n) => n.node_id !== tunnel?.node_id && (!tunnel || n.protocols.includes(tunnel.protocol)),
  );
  return (
    <FormModal<MoveValues>
      open={!!tunnel}
      title={`迁移隧道「${tunnel?.tun_name ?? ""}」`}
      okText="迁移"
      successText="隧道已迁移，请重新下载配置文件并重启 frpc"
      onSubmit={async (v) => {
        if (!tunnel) return;
        await moveTunnel({
          tun_id: tunnel.tun_id,
          node_id: v.node_id,
          ...(web ? {} : { remote_port: v.remote_port ?? 0 }),
        });
        await onMoved();
      }}
      onClose={onClose}
    >
      <Typography.Paragraph type="secondary">
        迁移后原节点上的连接会在下一次心跳时断开；新节点的端口和域名按创建时的规则重新检查。
      </Typography.Paragraph>
      <Form.Item name="node_id" label="目标节点" rules={fieldRules("目标节点", { required: true, choice: true })}>
        <Select
          placeholder="请选择节点"
          options={targets.map((n) => ({ value: n.node_id, label: `${n.name}（${n.area_name}）` }))}
        />
      </Form.Item>
      {web ? null : (
        <Form.Item
          name="remote_port"
          label="远程端口"
          extra="留空则由系统在新节点上分配一个空闲端口"
          rules={fieldRules("远程端口", { integer: true, range: { min: 1, max: 65535 } })}
        >
          <InputNumber min={1} max={65535} precision={0} style={{ width: "100%" }} />
        </Form.Item>
      )}
    </FormModal>
  );
}
