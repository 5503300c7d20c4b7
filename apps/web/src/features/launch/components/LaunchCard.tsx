import { type LaunchSystem, LaunchSystemLabel, LaunchSystems } from "@burrow/contract";
import { useQuery } from "@tanstack/react-query";
import { Alert, Card, Skeleton, Space, Tabs, Typography } from "antd";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { CodeBlock } from "@/components/CodeBlock";
import { launchCommandsQuery } from "../launch.api";

/** Where each command runs and what it leaves behind (docs/launch.md). */
const WHAT_IT_DOES: Record<LaunchSystem, string> = {
  linux: "以 root 运行：安装 systemd 服务 burrow-frpc-<节点>，开机自启；每次启动自动下载校验 frpc 并获取最新配置。",
  openwrt: "在路由器上以 root 运行：安装 procd 服务（/etc/init.d），开机自启；每次启动获取最新配置。",
  macos: "在终端运行（需要管理员密码）：安装 launchd 服务（/Library/LaunchDaemons），开机自启。",
  windows:
    "在“以管理员身份运行”的 PowerShell 中执行：安装到 %ProgramFiles%\\Burrow（仅 SYSTEM 与管理员可访问），注册开机启动的计划任务（SYSTEM）。",
  docker:
    "在装有 Docker 的主机上运行：启动脚本保存为 ~/.burrow/burrow-frpc-<节点>.sh（仅本人可读，请勿删除），容器 burrow-frpc-<节点> 挂载运行它，随 Docker 重启，每次启动重新获取 frpc 与配置。",
};

/**
 * 一键启动: one node's one-line installers per system, each with its copy button. The services
 * they install fetch frpc and the customer's current frpc.toml at every start, so a tunnel added
 * here is live after a restart of the service.
 */
export function LaunchCard({ nodeId, extra }: { nodeId: number; extra?: ReactNode }) {
  const { data, isPending, error } = useQuery(launchCommandsQuery(nodeId));
  let body: ReactNode;
  if (isPending) body = <Skeleton active paragraph={{ rows: 4 }} />;
  else if (error || !data) body = <Alert type="error" showIcon title="安装命令加载失败" />;
  else if (!data.commands)
    body = <Alert type="warning" showIcon title="暂不能生成安装命令" description={data.missing} />;
  else {
    const commands = data.commands;
    body = (
      <Tabs
        items={LaunchSystems.map((sys) => ({
          key: sys,
          label: LaunchSystemLabel[sys],
          children: (
            <Space orientation="vertical" size={8} style={{ width: "100%" }}>
              <Typography.Text type="secondary">
                {WHAT_IT_DOES[sys].replaceAll("<节点>", String(nodeId))}
              </Typography.Text>
              <CodeBlock code={commands[sys]} label={`${LaunchSystemLabel[sys]} 安装命令`} />
            </Space>
          ),
        }))}
      />
    );
  }
  return (
    <Card title="一键启动" extra={extra} data-testid="launch-card">
      <Space orientation="vertical" size={12} style={{ width: "100%" }}>
        <Typography.Text type="secondary">
          复制命令到目标设备运行一次即可：之后每次启动都会从控制台获取{data ? `节点「${data.node_name}」` : "该节点"}
          上你的全部隧道配置，在控制台新增隧道后重启服务即生效。命令中含有你的启动令牌，请勿泄露；可在{" "}
          <Link to="/account/info#launch-token">个人中心</Link> 更换或撤销，旧的安装会在下次启动时停止。
        </Typography.Text>
        {body}
      </Space>
    </Card>
  );
}
