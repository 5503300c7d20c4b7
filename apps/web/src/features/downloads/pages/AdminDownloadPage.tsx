import {
  CreateDownloadBody,
  DownloadArches,
  DownloadOses,
  type DownloadRow,
  downloadPlatformLabel,
} from "@burrow/contract";
import { useQuery } from "@tanstack/react-query";
import { Alert, Col, Form, Input, Row, Select, Tag, Typography } from "antd";
import { CrudListPage } from "@/components/CrudListPage";
import { TextItem } from "@/components/form/TextItem";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import { SelectFilter, TextFilter } from "@/components/SearchFields";
import { SortField } from "@/components/SortField";
import { formatBytes, formatTime } from "@/lib/format";
import { fieldRules } from "@/lib/rules";
import { ARCH_LABEL, OS_LABEL } from "../download-groups";
import {
  adminDownloadsQuery,
  createDownload,
  deleteDownload,
  downloadsKeys,
  updateDownload,
  userDownloadsQuery,
} from "../downloads.api";

const FILTERS = { os: "text", version: "text" } as const;

interface DownloadForm {
  os: DownloadRow["os"];
  arch: DownloadRow["arch"];
  version: string;
  url: string;
  checksum: string;
  note?: string;
  sort?: number | null;
}

/** The same formats as @burrow/contract's download schema. */

const osOptions = DownloadOses.map((os) => ({ value: os, label: OS_LABEL[os] }));
const archOptions = DownloadArches.map((a) => ({ value: a, label: ARCH_LABEL[a] }));
const half = { xs: 24, sm: 12 };

const columns: ResponsiveColumns<DownloadRow> = [
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

const save = async (v: DownloadForm, row: DownloadRow | undefined) => {
  const body = {
    os: v.os,
    arch: v.arch,
    version: v.version.trim(),
    url: v.url.trim(),
    checksum: v.checksum.trim().toLowerCase(),
    note: v.note?.trim() ?? "",
    sort: v.sort ?? 0,
  };
  // A mirrored build's platform, link and hash are the file's own (the server refuses changes): only note and sort.
  if (row?.mirrored) await updateDownload({ id: row.id, note: body.note, sort: body.sort });
  else if (row) await updateDownload({ id: row.id, ...body });
  else await createDownload(body);
};

/** How the console hosts the builds itself, shown while it hosts none. */
function MirrorHint() {
  const { data } = useQuery(userDownloadsQuery());
  if (!data || data.some((r) => r.mirrored)) return null;
  return (
    <Alert
      type="info"
      showIcon
      className="mirror-hint"
      title="由控制台自行构建并托管客户端"
      description={
        <>
          在控制台所在的服务器上运行 <Typography.Text code>npm run admin -- frp-mirror</Typography.Text>
          （需安装 Go）：从 Go 模块代理构建常见平台的 frpc 与 frps，保存到数据目录，并在此列出带 SHA-256
          的本站下载地址，客户无需访问境外下载站。详见 docs/downloads.md。
        </>
      }
    />
  );
}

/** The fields a mirrored build keeps (frp-mirror maintains them): shown, not editable. */
function BuildFields() {
  const mirrored = Form.useWatch("mirrored", { preserve: true }) === true;
  return (
    <>
      {mirrored ? (
        <Col span={24}>
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            title="控制台镜像的构建由 frp-mirror 命令维护，这里只能修改说明和排序"
          />
        </Col>
      ) : null}
      <Col {...half}>
        <Form.Item name="os" label="系统" rules={fieldRules("系统", { required: true, choice: true })}>
          <Select options={osOptions} disabled={mirrored} />
        </Form.Item>
      </Col>
      <Col {...half}>
        <Form.Item name="arch" label="架构" rules={fieldRules("架构", { required: true, choice: true })}>
          <Select options={archOptions} disabled={mirrored} />
        </Form.Item>
      </Col>
      <Col {...half}>
        <TextItem
          name="version"
          label="版本"
          required
          schema={CreateDownloadBody.shape.version}
          placeholder="0.70.1"
          disabled={mirrored}
        />
      </Col>
      <Col {...half}>
        <SortField />
      </Col>
      <Col span={24}>
        <TextItem
          name="url"
          label="下载地址"
          required
          schema={CreateDownloadBody.shape.url}
          placeholder="https://…/frp_0.70.1_linux_amd64.tar.gz"
          disabled={mirrored}
        />
      </Col>
      <Col span={24}>
        <TextItem
          name="checksum"
          label="SHA-256 校验和"
          ruleLabel="校验和"
          required
          schema={CreateDownloadBody.shape.checksum}
          maxLength={64}
          placeholder="64 位十六进制"
          disabled={mirrored}
        />
      </Col>
    </>
  );
}

/** /admin/download: the frpc builds customers can download. */
export function AdminDownloadPage() {
  return (
    <CrudListPage
      title="客户端管理"
      description={<MirrorHint />}
      noun="客户端"
      filterSpec={FILTERS}
      searchFields={
        <>
          <SelectFilter name="os" label="系统" width={130} options={osOptions} />
          <TextFilter name="version" label="版本" max={40} placeholder="如：0.70.1" />
        </>
      }
      query={(filters) => adminDownloadsQuery({ ...filters, os: filters.os as DownloadRow["os"] | undefined })}
      invalidateKey={downloadsKeys.all}
      rowKey="id"
      columns={columns}
      actions={{ width: 130, compact: true }}
      deleteTitle={(row) =>
        `删除 ${downloadPlatformLabel(row.os, row.arch)} ${row.version}？${row.mirrored ? "（文件保留，重新运行 frp-mirror 会再列出）" : ""}`
      }
      onDelete={(row) => deleteDownload(row.id)}
      onSave={save}
      newValues={{ os: "linux", arch: "amd64", sort: 0 }}
      modalWidth={640}
      formFields={
        <Row gutter={16}>
          <BuildFields />
          <Col span={24}>
            <Form.Item name="note" label="说明" rules={fieldRules("说明", { length: { max: 200 } })}>
              <Input maxLength={200} />
            </Form.Item>
          </Col>
        </Row>
      }
    />
  );
}
