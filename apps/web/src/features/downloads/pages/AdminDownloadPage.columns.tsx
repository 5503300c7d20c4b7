import type { DownloadRow } from "@burrow/contract";
import { Tag, Typography } from "antd";
import type { ResponsiveColumns } from "@/components/responsive-columns";
import { formatBytes, formatTime } from "@/lib/format";
import { ARCH_LABEL, OS_LABEL } from "../download-groups";

/** /admin/download's columns: the platform and version first, the link and hash where there is room. */
export const downloadColumns: ResponsiveColumns<DownloadRow> = [
  { title: "ID", priority: 6, dataIndex: "id", width: 70 },
  { title: "系统", role: "title", dataIndex: "os", width: 100, render: (os: DownloadRow["os"]) => OS_LABEL[os] ?? os },
  { title: "架构", priority: 2, dataIndex: "arch", width: 160, render: (a: DownloadRow["arch"]) => ARCH_LABEL[a] ?? a },
  { title: "版本", priority: 2, dataIndex: "version", width: 110 },
  {
    title: "来源",
    priority: 2,
    dataIndex: "mirrored",
    width: 110,
    render: (m: boolean) => (m ? <Tag color="cyan">控制台镜像</Tag> : <Tag>手动填写</Tag>),
  },
  {
    title: "大小",
    priority: 5,
    dataIndex: "size",
    width: 100,
    render: (n: number | null) => (n === null ? "—" : formatBytes(n)),
  },
  {
    title: "下载地址",
    priority: 3,
    dataIndex: "url",
    width: 280,
    ellipsis: true,
    render: (url: string) => (
      <Typography.Link href={url} target="_blank" rel="noopener noreferrer">
        {url}
      </Typography.Link>
    ),
  },
  {
    title: "SHA-256",
    priority: 5,
    dataIndex: "checksum",
    width: 180,
    render: (c: string) => <Typography.Text copyable={{ text: c }}>{c.slice(0, 12)}…</Typography.Text>,
  },
  { title: "说明", priority: 4, dataIndex: "note", ellipsis: true },
  { title: "排序", priority: 5, dataIndex: "sort", width: 70 },
  { title: "创建时间", priority: 5, dataIndex: "created_at", width: 180, render: (v: string) => formatTime(v) },
];
