import { type DownloadRow, downloadPlatformLabel } from "@burrow/contract";
import { RiDownloadLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { Button, Card, Empty, Space, Tag, Typography } from "antd";
import { Link } from "react-router";
import { PageContainer } from "@/components/PageContainer";
import { type ResponsiveColumns, ResponsiveTable } from "@/components/ResponsiveTable";
import { LaunchPicker } from "@/features/launch/components/LaunchPicker";
import { formatBytes } from "@/lib/format";
import { groupByOs, guessPlatform, OS_LABEL, suggestedBuilds } from "../download-groups";
import { userDownloadsQuery } from "../downloads.api";

/** A build's download button: a mirrored file is the console's own attachment (no new tab). */
function DownloadButton({ row, primary = true }: { row: DownloadRow; primary?: boolean }) {
  return (
    <Button
      type={primary ? "primary" : "default"}
      size="small"
      icon={<RiDownloadLine size={14} />}
      href={row.url}
      {...(row.mirrored ? {} : { target: "_blank", rel: "noopener noreferrer" })}
      aria-label={`下载 ${downloadPlatformLabel(row.os, row.arch)} ${row.version}`}
    >
      下载
    </Button>
  );
}

const Checksum = ({ value }: { value: string }) => (
  <Typography.Text
    code
    copyable={{ text: value, tooltips: ["复制校验和", "已复制"] }}
    style={{ wordBreak: "break-all", fontSize: 12 }}
  >
    {value}
  </Typography.Text>
);

/** /download: frpc builds grouped by system (the visitor's first), newest version first. */
export function DownloadPage() {
  const { data, isPending } = useQuery(userDownloadsQuery());
  const guess = guessPlatform(navigator.userAgent);
  const groups = groupByOs(data ?? [], guess?.os);
  const suggested = suggestedBuilds(data ?? [], guess);
  const fits = new Set(suggested.map((r) => r.id));

  const columns = (latest: string): ResponsiveColumns<DownloadRow> => [
    {
      title: "平台",
      role: "title",
      key: "platform",
      width: 200,
      render: (_: unknown, row) => (
        <Space size={4} wrap>
          {downloadPlatformLabel(row.os, row.arch)}
          {fits.has(row.id) ? <Tag color="blue">适合本机</Tag> : null}
        </Space>
      ),
    },
    {
      title: "版本",
      priority: 2,
      dataIndex: "version",
      width: 140,
      render: (v: string) => (
        <Space size={4}>
          {v}
          {v === latest ? <Tag color="green">最新</Tag> : null}
        </Space>
      ),
    },
    {
      title: "大小",
      priority: 3,
      dataIndex: "size",
      width: 100,
      render: (n: number | null) => (n === null ? "—" : formatBytes(n)),
    },
    {
      title: "SHA-256",
      priority: 4,
      dataIndex: "checksum",
      width: 300,
      render: (c: string) => <Checksum value={c} />,
    },
    {
      title: "说明",
      priority: 3,
      dataIndex: "note",
      ellipsis: true,
      render: (note: string, row) => (
        <Space size={4} wrap>
          {row.mirrored ? <Tag color="cyan">本站提供</Tag> : null}
          {note}
        </Space>
      ),
    },
    {
      title: "下载",
      role: "action",
      key: "download",
      width: 110,
      render: (_: unknown, row) => <DownloadButton row={row} />,
    },
  ];

  return (
    <PageContainer
      title="客户端下载"
      description={
        <>
          下载对应系统和架构的 frpc，解压后配合 <Link to="/tun/list">隧道</Link>{" "}
          详情页中的配置文件使用。安装与开机自启见文档：
          <Link to="/doc/windows">Windows</Link>、<Link to="/doc/macos">macOS</Link>、<Link to="/doc/linux">Linux</Link>
          、<Link to="/doc/openwrt">OpenWrt</Link>、<Link to="/doc/docker">Docker</Link>。
        </>
      }
    >
      <LaunchPicker />
      {isPending ? <Card loading /> : null}
      {suggested.length ? (
        <Card title="适合本机" className="download-suggested">
          <Space orientation="vertical" size={12} style={{ width: "100%" }}>
            {suggested.map((r) => (
              <Space key={r.id} wrap size={[12, 4]}>
                <Typography.Text strong>{downloadPlatformLabel(r.os, r.arch)}</Typography.Text>
                <Typography.Text type="secondary">
                  frpc {r.version}
                  {r.size === null ? "" : ` · ${formatBytes(r.size)}`}
                </Typography.Text>
                <DownloadButton row={r} />
                <Typography.Text type="secondary">SHA-256</Typography.Text>
                <Checksum value={r.checksum} />
              </Space>
            ))}
          </Space>
        </Card>
      ) : null}
      {!isPending && !groups.length ? (
        <Card>
          <Empty
            className="downloads-empty"
            description={
              <Space orientation="vertical" size={4}>
                <Typography.Text strong>本站暂未提供客户端下载</Typography.Text>
                <Typography.Text type="secondary">
                  可从 frp 官方发布页{" "}
                  <a href="https://github.com/fatedier/frp/releases" target="_blank" rel="noopener noreferrer">
                    github.com/fatedier/frp/releases
                  </a>{" "}
                  下载对应系统的 frpc，配合<Link to="/tun/list">隧道</Link>详情页中的配置文件使用。有疑问请
                  <Link to="/help/ticket">提交工单</Link>。
                </Typography.Text>
              </Space>
            }
          />
        </Card>
      ) : null}
      {groups.map((g) => (
        <Card
          key={g.os}
          title={
            <Space>
              {OS_LABEL[g.os]}
              <Typography.Text type="secondary">最新版本 {g.latest}</Typography.Text>
            </Space>
          }
        >
          <ResponsiveTable<DownloadRow>
            rowKey="id"
            size="middle"
            columns={columns(g.latest)}
            dataSource={g.builds}
            pagination={{ pageSize: 10, hideOnSinglePage: true }}
          />
        </Card>
      ))}
    </PageContainer>
  );
}
