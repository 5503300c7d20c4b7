import { DownloadArches, DownloadOses, type DownloadRow } from "@burrow/contract";
import { RiAddLine } from "@remixicon/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  Button,
  Card,
  Col,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Row,
  Select,
  Space,
  Table,
  type TableColumnsType,
  Typography,
} from "antd";
import { useState } from "react";
import { FormModal } from "@/components/FormModal";
import { PageContainer } from "@/components/PageContainer";
import { SearchActions } from "@/components/SearchActions";
import { useAccess } from "@/hooks/useAccess";
import { useUrlFilters } from "@/hooks/useUrlFilters";
import { feedback } from "@/lib/feedback";
import { formatTime } from "@/lib/format";
import { fieldRules } from "@/lib/rules";
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
const VERSION_PATTERN = /^v?\d+\.\d+\.\d+([-.+][0-9A-Za-z.-]+)?$/;
const CHECKSUM_PATTERN = /^[0-9a-fA-F]{64}$/;
const URL_PATTERN = /^https?:\/\/\S+$/;

const osOptions = DownloadOses.map((os) => ({ value: os, label: OS_LABEL[os] }));
const archOptions = DownloadArches.map((a) => ({ value: a, label: ARCH_LABEL[a] }));
const half = { xs: 24, sm: 12 };

/** /admin/download: the frpc builds customers can download. */
export function AdminDownloadPage() {
  const queryClient = useQueryClient();
  const { canWrite } = useAccess();
  const [form] = Form.useForm();
  const { filters, search, reset, pagination } = useUrlFilters(FILTERS, form);
  const { data, isFetching } = useQuery(
    adminDownloadsQuery({ ...filters, os: filters.os as DownloadRow["os"] | undefined }),
  );
  const [editing, setEditing] = useState<{ row?: DownloadRow } | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: downloadsKeys.all });
  const remove = useMutation({
    mutationFn: deleteDownload,
    onSuccess: async () => {
      feedback.success("客户端已删除");
      await refresh();
    },
  });

  const save = async (v: DownloadForm) => {
    const body = {
      os: v.os,
      arch: v.arch,
      version: v.version.trim(),
      url: v.url.trim(),
      checksum: v.checksum.trim().toLowerCase(),
      note: v.note?.trim() ?? "",
      sort: v.sort ?? 0,
    };
    if (editing?.row) await updateDownload({ id: editing.row.id, ...body });
    else await createDownload(body);
    await refresh();
  };

  const columns: TableColumnsType<DownloadRow> = [
    { title: "ID", dataIndex: "id", width: 70 },
    { title: "系统", dataIndex: "os", width: 100, render: (os: DownloadRow["os"]) => OS_LABEL[os] ?? os },
    { title: "架构", dataIndex: "arch", width: 160, render: (a: DownloadRow["arch"]) => ARCH_LABEL[a] ?? a },
    { title: "版本", dataIndex: "version", width: 110 },
    {
      title: "下载地址",
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
      dataIndex: "checksum",
      width: 180,
      render: (c: string) => <Typography.Text copyable={{ text: c }}>{c.slice(0, 12)}…</Typography.Text>,
    },
    { title: "说明", dataIndex: "note", ellipsis: true },
    { title: "排序", dataIndex: "sort", width: 70 },
    { title: "创建时间", dataIndex: "created_at", width: 180, render: (v: string) => formatTime(v) },
  ];
  if (canWrite) {
    columns.push({
      title: "操作",
      key: "actions",
      width: 130,
      fixed: "right",
      render: (_: unknown, row) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setEditing({ row })}>
            编辑
          </Button>
          <Popconfirm
            title={`删除 ${OS_LABEL[row.os]} ${row.arch} ${row.version}？`}
            okText="删除"
            cancelText="取消"
            okButtonProps={{ danger: true }}
            onConfirm={() => remove.mutateAsync(row.id).catch(() => undefined)}
          >
            <Button type="link" size="small" danger>
              删除
            </Button>
          </Popconfirm>
        </Space>
      ),
    });
  }

  return (
    <PageContainer
      title="客户端管理"
      extra={
        canWrite ? (
          <Button type="primary" icon={<RiAddLine size={16} />} onClick={() => setEditing({})}>
            新增客户端
          </Button>
        ) : null
      }
    >
      <Card className="search-card">
        <Form form={form} layout="inline" onFinish={search}>
          <Form.Item name="os" label="系统">
            <Select allowClear placeholder="全部" style={{ width: 130 }} options={osOptions} />
          </Form.Item>
          <Form.Item name="version" label="版本" rules={fieldRules("版本", { length: { max: 40 } })}>
            <Input allowClear placeholder="如：0.70.1" />
          </Form.Item>
          <SearchActions onReset={reset} />
        </Form>
      </Card>
      <Card>
        <Table<DownloadRow>
          rowKey="id"
          columns={columns}
          dataSource={data?.list}
          loading={isFetching}
          scroll={{ x: 1450 }}
          pagination={pagination(data?.total)}
        />
      </Card>
      <FormModal<DownloadForm>
        open={editing !== null}
        title={editing?.row ? "编辑客户端" : "新增客户端"}
        width={640}
        initialValues={editing?.row ?? { os: "linux", arch: "amd64", sort: 0 }}
        successText={editing?.row ? "客户端已保存" : "客户端已添加"}
        onSubmit={save}
        onClose={() => setEditing(null)}
      >
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
              rules={fieldRules("版本", { required: true, length: { max: 40 }, pattern: VERSION_PATTERN })}
            >
              <Input placeholder="0.70.1" />
            </Form.Item>
          </Col>
          <Col {...half}>
            <Form.Item
              name="sort"
              label="排序"
              rules={fieldRules("排序", { integer: true, range: { min: 0, max: 1_000_000 } })}
            >
              <InputNumber min={0} max={1_000_000} precision={0} style={{ width: "100%" }} />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item
              name="url"
              label="下载地址"
              rules={fieldRules("下载地址", { required: true, length: { max: 500 }, pattern: URL_PATTERN })}
            >
              <Input placeholder="https://…/frp_0.70.1_linux_amd64.tar.gz" />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item
              name="checksum"
              label="SHA-256 校验和"
              rules={fieldRules("校验和", { required: true, pattern: CHECKSUM_PATTERN })}
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
      </FormModal>
    </PageContainer>
  );
}
