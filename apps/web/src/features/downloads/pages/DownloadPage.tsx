import type { DownloadRow } from "@burrow/contract";
import { RiDownloadLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { Button, Card, Empty, Space, Tag, Typography } from "antd";
import { Link } from "react-router";
import { PageContainer } from "@/components/PageContainer";
import { type ResponsiveColumns, ResponsiveTable } from "@/components/ResponsiveTable";
import { LaunchPicker } from "@/features/launch/components/LaunchPicker";
import { ARCH_LABEL, groupByOs, OS_LABEL } from "../download-groups";
import { userDownloadsQuery } from "../downloads.api";

/** /download: frpc builds grouped by system, newest version first. */
export function DownloadPage() {
  const { data, isPending } = useQuery(userDownloadsQuery());
  const groups = groupByOs(data ?? []);

  const columns = (latest: string): ResponsiveColumns<DownloadRow> => [
    {
      title: "架构",
      role: "title",
      dataIndex: "arch",
      width: 180,
      render: (a: DownloadRow["arch"]) => ARCH_LABEL[a] ?? a,
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
      title: "SHA-256",
      priority: 4,
      dataIndex: "checksum",
      ellipsis: true,
      render: (c: string) => (
        <Typography.Text code copyable={{ text: c, tooltips: ["复制校验和", "已复制"] }}>
          {c.slice(0, 16)}…
        </Typography.Text>
      ),
    },
    { title: "说明", priority: 3, dataIndex: "note", ellipsis: true },
    {
      title: "下载",
      role: "action",
      key: "download",
      width: 110,
      render: (_: unknown, row) => (
        <Button
          type="primary"
          size="small"
          icon={<RiDownloadLine size={14} />}
          href={row.url}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={`下载 ${OS_LABEL[row.os]} ${row.arch} ${row.version}`}
        >
          下载
        </Button>
      ),
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
