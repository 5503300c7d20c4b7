import type { TunnelDetail } from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Descriptions, Popconfirm, Skeleton, Space, Typography } from "antd";
import { feedback } from "@/lib/feedback";
import { rotateTunnelSecret, tunnelsKeys, tunnelVisitorQuery } from "../tunnels.api";
import { TomlFile } from "./FrpcConfigCard";

const HOW: Record<string, string> = {
  stcp: "访问端的 frpc 经节点中转连接本隧道",
  sudp: "访问端的 frpc 经节点中转 UDP 数据",
  xtcp: "访问端与本机优先点对点直连（P2P），打洞失败时自动改由节点中转（中转的流量计入本隧道）",
};

/**
 * A secret tunnel (stcp, xtcp, sudp): its secret (copy, rotate) and the visitor side's frpc.toml
 * for the other machine (copy, download). Shown to the owner only.
 */
export function SecretTunnelCard({ tunnel, disabled }: { tunnel: TunnelDetail; disabled?: boolean }) {
  const queryClient = useQueryClient();
  const tunId = tunnel.tun_id;
  const { data: config, isPending } = useQuery(tunnelVisitorQuery(tunId));
  const rotate = useMutation({
    mutationFn: () => rotateTunnelSecret(tunId),
    onSuccess: async () => {
      // Both files carry the secret: the page shows them again.
      await queryClient.invalidateQueries({ queryKey: tunnelsKeys.detail(tunId) });
      feedback.success("密钥已重置，请重新下载两端的 frpc 配置并重启 frpc");
    },
  });
  return (
    <Card title="访问端配置（私密隧道）">
      <Space orientation="vertical" size={16} style={{ width: "100%" }}>
        <Typography.Text type="secondary">
          私密隧道不开放公网端口：{HOW[tunnel.protocol] ?? "访问端的 frpc 连接本隧道"}。在要访问它的另一台电脑上下载
          frpc，把下面的配置保存后运行，再访问那台电脑上的本地地址即可。两端使用同一个账户，密钥请勿泄露。
        </Typography.Text>
        <Descriptions column={1} size="small">
          <Descriptions.Item label="密钥">
            <Space>
              <Typography.Text code copyable={{ text: tunnel.secret_key ?? "" }}>
                {tunnel.secret_key}
              </Typography.Text>
              <Popconfirm
                title="重置密钥？"
                description="新的 frpc 连接只接受新密钥：两端的配置都需要重新下载，并重启本隧道的 frpc。"
                okText="重置"
                cancelText="取消"
                onConfirm={() => rotate.mutateAsync()}
                disabled={disabled}
              >
                <Button size="small" danger loading={rotate.isPending} disabled={disabled}>
                  重置密钥
                </Button>
              </Popconfirm>
            </Space>
          </Descriptions.Item>
        </Descriptions>
        {isPending || !config ? (
          <Skeleton active paragraph={{ rows: 6 }} />
        ) : (
          <TomlFile config={config} download="下载访问端配置" />
        )}
      </Space>
    </Card>
  );
}
