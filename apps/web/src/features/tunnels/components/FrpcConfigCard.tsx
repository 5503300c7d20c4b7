import type { TunnelConfig } from "@burrow/contract";
import { RiDownloadLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { Button, Card, Skeleton, Space, Tabs, Typography } from "antd";
import { Link } from "react-router";
import { CodeBlock } from "@/components/CodeBlock";
import { saveBlob } from "@/lib/download";
import { tunnelConfigQuery } from "../tunnels.api";

const OSES = [
  { key: "windows", label: "Windows" },
  { key: "macos", label: "macOS" },
  { key: "linux", label: "Linux" },
] as const;

/** The documentation section on a tunnel type. */
export const tunnelTypeDoc = (protocol: string) => `/doc/tunnels#${protocol}`;

/** A generated frpc.toml with its copy and download buttons (the serving side's, or a visitor's). */
export function TomlFile({ config, download }: { config: Pick<TunnelConfig, "toml" | "filename">; download: string }) {
  return (
    <CodeBlock
      code={config.toml}
      label={config.filename}
      extra={
        <Button
          size="small"
          icon={<RiDownloadLine size={14} />}
          onClick={() => saveBlob(new Blob([config.toml], { type: "text/plain;charset=utf-8" }), config.filename)}
        >
          {download}
        </Button>
      }
    />
  );
}

/** The tunnel's frpc.toml (copy, download) and the one-line run commands per system. */
export function FrpcConfigCard({ tunId, protocol }: { tunId: number; protocol?: string }) {
  const { data: config, isPending } = useQuery(tunnelConfigQuery(tunId));
  return (
    <Card title="frpc 配置">
      {isPending || !config ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <Space orientation="vertical" size={16} style={{ width: "100%" }}>
          <Typography.Text type="secondary">
            1. <Link to="/download">下载 frpc</Link>；2. 把下面的配置保存为{" "}
            <Typography.Text code>{config.filename}</Typography.Text>
            ，放在 frpc 同一目录；3. 运行对应系统的启动命令。配置中包含你的访问密钥，请勿泄露。
          </Typography.Text>
          <Typography.Text type="secondary">
            文档：<Link to="/doc/getting-started">快速开始</Link>
            {protocol ? (
              <>
                {" · "}
                <Link to={tunnelTypeDoc(protocol)}>{protocol.toUpperCase()} 隧道说明</Link>
              </>
            ) : null}
            {" · 开机自启："}
            <Link to="/doc/windows#service">Windows</Link>、<Link to="/doc/macos#service">macOS</Link>、
            <Link to="/doc/linux#service">Linux</Link>、<Link to="/doc/openwrt#service">OpenWrt</Link>、
            <Link to="/doc/docker">Docker</Link>
            {" · "}
            <Link to="/doc/errors">报错排查</Link>
          </Typography.Text>
          <TomlFile config={config} download="下载配置" />
          <Tabs
            items={OSES.map((os) => ({
              key: os.key,
              label: os.label,
              children: <CodeBlock code={config.commands[os.key]} label={`${os.label} 启动命令`} />,
            }))}
          />
        </Space>
      )}
    </Card>
  );
}
