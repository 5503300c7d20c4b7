import { type SslCertView, SslFileNames, type SslFilePart } from "@burrow/contract";
import { RiDownloadLine } from "@remixicon/react";
import { Button, Dropdown, Popconfirm, Space, Tag, Typography } from "antd";
import { reportError } from "@/api/query-client";
import type { ResponsiveColumns } from "@/components/responsive-columns";
import { saveBlob } from "@/lib/download";
import { formatTime } from "@/lib/format";
import { downloadCertificate } from "../ssl.api";

const PARTS: { key: SslFilePart; label: string }[] = [
  { key: "fullchain", label: "完整证书链（fullchain.pem）" },
  { key: "key", label: "私钥（privkey.pem）" },
  { key: "cert", label: "证书（cert.pem）" },
  { key: "chain", label: "中间证书链（chain.pem）" },
];

async function save(cert: SslCertView, part: SslFilePart) {
  try {
    const file = await downloadCertificate(cert.id, part);
    saveBlob(file.blob, file.filename ?? `${cert.domain}-${SslFileNames[part]}`);
  } catch (error) {
    reportError(error);
  }
}

function ExpiryTag({ cert }: { cert: SslCertView }) {
  if (cert.days_left < 0) return <Tag color="red">已过期</Tag>;
  if (cert.days_left <= 30) return <Tag color="orange">{cert.days_left} 天后到期</Tag>;
  return <Tag color="green">剩余 {cert.days_left} 天</Tag>;
}

/** 我的证书's columns: the domain and its expiry first, then the actions (issue 35 §2/§5). */
export function sslColumns(onDelete: (id: number) => void): ResponsiveColumns<SslCertView> {
  return [
    {
      title: "域名",
      role: "title",
      width: 200,
      dataIndex: "domain",
      render: (d: string, c) => (
        <Space orientation="vertical" size={0}>
          <span>{d}</span>
          {c.notice ? <Typography.Text type="warning">{c.notice}</Typography.Text> : null}
        </Space>
      ),
    },
    {
      title: "来源",
      priority: 3,
      width: 100,
      dataIndex: "source",
      render: (s: string) => (s === "acme" ? <Tag color="blue">自动签发</Tag> : <Tag>上传</Tag>),
    },
    { title: "签发者", dataIndex: "issuer", priority: 3, width: 160 },
    { title: "包含域名", priority: 4, width: 200, dataIndex: "names", render: (n: string[]) => n.join("、") },
    {
      title: "到期时间",
      role: "status",
      width: 170,
      dataIndex: "not_after",
      render: (v: string, c) => (
        <Space orientation="vertical" size={0}>
          <span>{formatTime(v)}</span>
          <ExpiryTag cert={c} />
        </Space>
      ),
    },
    {
      title: "操作",
      key: "actions",
      width: 170,
      render: (_, c) => (
        <Space>
          <Dropdown
            menu={{
              items: PARTS.filter((p) => p.key !== "chain" || c.has_chain).map((p) => ({
                key: p.key,
                label: p.label,
              })),
              onClick: ({ key }) => void save(c, key as SslFilePart),
            }}
          >
            <Button size="small" icon={<RiDownloadLine size={14} />}>
              下载
            </Button>
          </Dropdown>
          <Popconfirm
            title="删除这张证书？"
            description="私钥会一并删除，使用它的 frpc 配置将不再启用 HTTPS 插件。"
            onConfirm={() => onDelete(c.id)}
          >
            <Button size="small" danger>
              删除
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];
}
