import { CreateDownloadBody, DownloadArches, DownloadOses, type DownloadRow } from "@burrow/contract";
import { Col, Form, Input, Row, Select, Typography } from "antd";
import { CrudListPage } from "@/components/CrudListPage";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import { SelectFilter, TextFilter } from "@/components/SearchFields";
import { SortField } from "@/components/SortField";
import { formatTime } from "@/lib/format";
import { fieldRules, schemaRule } from "@/lib/rules";
import { ARCH_LABEL, OS_LABEL } from "../download-groups";
import { adminDownloadsQuery, createDownload, deleteDownload, downloadsKeys, updateDownload } from "../downloads.api";

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
  if (row) await updateDownload({ id: row.id, ...body });
  else await createDownload(body);
};

/** /admin/download: the frpc builds customers can download. */
export function AdminDownloadPage() {
  return (
    <CrudListPage
      title="客户端管理"
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
      deleteTitle={(row) => `删除 ${OS_LABEL[row.os]} ${row.arch} ${row.version}？`}
      onDelete={(row) => deleteDownload(row.id)}
      onSave={save}
      newValues={{ os: "linux", arch: "amd64", sort: 0 }}
      modalWidth={640}
      formFields={
        <Row gutter={16}>
          <Col {...half}>
            <Form.Item name="os" label="系统" rules={fieldRules("系统", { required: true, choice: true })}>
              <Select options={osOptions} />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item name="arch" label="架构" rules={fieldRules("架构", { required: true, choice: true })}>
              <Select options={archOptions} />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item
              name="version"
              label="版本"
              rules={[...fieldRules("版本", { required: true }), schemaRule(CreateDownloadBody.shape.version)]}
            >
              <Input placeholder="0.70.1" />
            </Form.Item>
          </Col>
          <Col {...half}>
            <SortField />
          </Col>
          <Col span={24}>
            <Form.Item
              name="url"
              label="下载地址"
              rules={[...fieldRules("下载地址", { required: true }), schemaRule(CreateDownloadBody.shape.url)]}
            >
              <Input placeholder="https://…/frp_0.70.1_linux_amd64.tar.gz" />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item
              name="checksum"
              label="SHA-256 校验和"
              rules={[...fieldRules("校验和", { required: true }), schemaRule(CreateDownloadBody.shape.checksum)]}
            >
              <Input maxLength={64} placeholder="64 位十六进制" />
            </Form.Item>
          </Col>
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
