import type { AdminNodeRow, NodeSetup } from "@burrow/contract";
import { RiRefreshLine } from "@remixicon/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Drawer, Popconfirm, Skeleton, Space, Tabs, Tag, Typography } from "antd";
import { CodeBlock } from "@/components/CodeBlock";
import { CopyButton } from "@/components/CopyButton";
import { siteQuery } from "@/features/shell/shell.api";
import { feedback } from "@/lib/feedback";
import { nodeSetupQuery, nodesKeys, updateNode } from "../nodes.api";

type Variant = NodeSetup["recommended"];

/** The install variants, in the order they are offered. */
const VARIANTS: { key: Variant; label: string; hint: string }[] = [
  { key: "host", label: "Docker · host", hint: "Docker 容器使用宿主机网络" },
  { key: "ipvlan", label: "Docker · IP-vlan", hint: "容器独占节点公网地址（ipvlan 网络）" },
  { key: "macvlan", label: "Docker · mac-vlan", hint: "容器独占节点公网地址（macvlan 网络）" },
  { key: "binary", label: "二进制 · systemd", hint: "直接运行 frps 二进制，由 systemd 守护" },
];

export interface NodeSetupDrawerProps {
  node: AdminNodeRow | null;
  /** managers may reset the plugin secret */
  canWrite: boolean;
  onClose: () => void;
}

/** 部署: the node's ready frps.toml and the install script for its network type, with copy buttons. */
export function NodeSetupDrawer({ node, canWrite, onClose }: NodeSetupDrawerProps) {
  const queryClient = useQueryClient();
  const nodeId = node?.node_id ?? 0;
  const { data: setup, isPending } = useQuery({ ...nodeSetupQuery(nodeId), enabled: node !== null });
  const { data: site } = useQuery(siteQuery());
  const reset = useMutation({
    mutationFn: () => updateNode({ node_id: nodeId, reset_secret: true }),
    onSuccess: async () => {
      feedback.success("插件密钥已重置，请用新的 frps.toml 重启节点");
      await queryClient.invalidateQueries({ queryKey: nodesKeys.setup(nodeId) });
    },
  });

  return (
    <Drawer
      open={node !== null}
      title={node ? `部署节点 · ${node.name}` : "部署节点"}
      size={820}
      onClose={onClose}
      destroyOnHidden
      extra={
        canWrite ? (
          <Popconfirm
            title="重置插件密钥？"
            description="重置后，节点需使用新的 frps.toml 重启，旧密钥立即失效。"
            okText="重置"
            cancelText="取消"
            okButtonProps={{ danger: true }}
            onConfirm={() => reset.mutateAsync().catch(() => undefined)}
          >
            <Button danger icon={<RiRefreshLine size={16} />} loading={reset.isPending}>
              重置插件密钥
            </Button>
          </Popconfirm>
        ) : null
      }
    >
      {isPending || !setup ? (
        <Skeleton active paragraph={{ rows: 12 }} />
      ) : (
        <Space orientation="vertical" size={16} style={{ width: "100%" }}>
          <Alert
            type="info"
            showIcon
            title={`frp ${setup.frp_version}：在节点服务器上以 root 运行安装脚本，或把 frps.toml 放到 /etc/frp/ 后启动 frps。`}
            description={
              setup.agent_mode === 1
                ? "节点代理模式：先在节点上安装 Burrow 节点代理（下面一行命令），再安装 frps。frps 只调用本机 127.0.0.1 上的代理，代理从控制台同步状态、回传流量；节点无需对控制台开放任何端口，面板只在本机监听。"
                : "直连模式：Burrow 通过插件地址决定每次登录、隧道、心跳和连接，并轮询节点面板获取状态与流量（控制台重启期间节点会拒绝登录和访客，仅适合单机部署）。"
            }
          />
          {setup.agent_mode === 1 ? <AgentInstall setup={setup} /> : null}
          {site && !site.public_url ? (
            <Alert
              className="public-url-missing"
              type="warning"
              showIcon
              title="站点未设置 PUBLIC_URL，下面的插件地址是按当前浏览器地址推测的"
              description={
                <>
                  frps 用插件地址回连 Burrow 决定每次登录和隧道；若它不是节点能访问到的地址（例如通过
                  localhost、内网地址或反向代理打开控制台时），节点上的所有登录都会被拒绝。请在服务器环境变量中设置
                  <Typography.Text code>PUBLIC_URL</Typography.Text>
                  为控制台的公网地址并重启（见 docs/deploy.md），再复制这里的配置。
                </>
              }
            />
          ) : null}
          <div>
            <Typography.Text strong>
              {setup.agent_mode === 1 ? "直连模式插件地址（节点代理模式不使用）" : "插件地址"}
            </Typography.Text>
            <Space.Compact block className="setup-plugin-url">
              <Typography.Text code className="setup-plugin-url-text" data-testid="plugin-url">
                {setup.plugin_url}
              </Typography.Text>
              <CopyButton text={setup.plugin_url} aria-label="复制插件地址" />
            </Space.Compact>
          </div>
          <Tabs
            defaultActiveKey="install"
            items={[
              {
                key: "install",
                label: "安装命令",
                children: <InstallScripts setup={setup} />,
              },
              {
                key: "toml",
                label: "frps.toml",
                children: <CodeBlock code={setup.frps_toml} label="frps.toml" />,
              },
            ]}
          />
        </Space>
      )}
    </Drawer>
  );
}

function InstallScripts({ setup }: { setup: NodeSetup }) {
  return (
    <Tabs
      tabPlacement="start"
      defaultActiveKey={setup.recommended}
      items={VARIANTS.map((v) => ({
        key: v.key,
        label: (
          <Space size={4}>
            {v.label}
            {v.key === setup.recommended ? <Tag color="blue">推荐</Tag> : null}
          </Space>
        ),
        children: (
          <Space orientation="vertical" style={{ width: "100%" }}>
            <Typography.Text type="secondary">
              {v.hint}
              {v.key === setup.recommended ? "（与节点的网络类型一致）" : ""}
            </Typography.Text>
            <CodeBlock code={setup.install[v.key]} label={`安装脚本 ${v.label}`} />
          </Space>
        ),
      }))}
    />
  );
}

/** The node agent's one-line installer (run before frps's), or why there is none. */
function AgentInstall({ setup }: { setup: NodeSetup }) {
  if (!setup.agent_install)
    return <Alert type="warning" showIcon title="无法生成节点代理安装命令" description={setup.agent_missing} />;
  return (
    <div data-testid="agent-install">
      <Typography.Text strong>节点代理安装命令（以 root 运行，需要 Node.js 20 或更高版本）</Typography.Text>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        下载节点代理，写入 /etc/burrow-agent.env（控制台地址、节点 ID 与密钥）和 systemd 服务
        burrow-agent（崩溃后自动重启）。
      </Typography.Paragraph>
      <CodeBlock code={setup.agent_install} label="节点代理安装命令" />
    </div>
  );
}
