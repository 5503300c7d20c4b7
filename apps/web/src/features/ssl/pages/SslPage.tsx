import {
  type SslCertView,
  SslFileNames,
  type SslFilePart,
  type SslIssueBody,
  type SslUploadBody,
} from "@burrow/contract";
import { RiDownloadLine } from "@remixicon/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  Alert,
  Button,
  Card,
  Dropdown,
  Empty,
  Form,
  Input,
  Popconfirm,
  Radio,
  Select,
  Space,
  Tag,
  Typography,
} from "antd";
import { useState } from "react";
import { Link } from "react-router";
import { reportError } from "@/api/query-client";
import { FormModal } from "@/components/FormModal";
import { PageContainer } from "@/components/PageContainer";
import { ResponsiveTable } from "@/components/ResponsiveTable";
import { saveBlob } from "@/lib/download";
import { feedback } from "@/lib/feedback";
import { formatTime } from "@/lib/format";
import { FrpcCertHelp } from "../components/FrpcCertHelp";
import { IssueProgress } from "../components/IssueProgress";
import {
  deleteCertificate,
  downloadCertificate,
  sslKeys,
  sslOverviewQuery,
  startIssue,
  uploadCertificate,
} from "../ssl.api";

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

/** /ssl: certificates of the customer's verified domains — upload, issue through ACME, download. */
export function SslPage() {
  const { data } = useQuery(sslOverviewQuery());
  const queryClient = useQueryClient();
  const [modal, setModal] = useState<"upload" | "issue" | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: sslKeys.all });
  const remove = useMutation({ mutationFn: deleteCertificate, onSuccess: refresh });
  if (!data) return null;
  const domainOptions = data.domains.map((d) => ({ value: d, label: d }));
  const noDomains = data.domains.length === 0;

  return (
    <PageContainer
      title="SSL 证书"
      description="为已验证的自定义域名上传证书或自动签发免费证书，并在 frpc 的 HTTPS 隧道中使用。"
      extra={
        <Space>
          <Button disabled={noDomains} onClick={() => setModal("upload")}>
            上传证书
          </Button>
          <Button type="primary" disabled={noDomains} onClick={() => setModal("issue")}>
            申请免费证书
          </Button>
        </Space>
      }
    >
      <Space orientation="vertical" size={16} style={{ width: "100%" }}>
        {noDomains ? (
          <Alert
            type="info"
            showIcon
            title={
              <span>
                你还没有已验证的域名。请先到 <Link to="/domain">域名管理</Link> 添加并验证域名，再为它上传或申请证书。
              </span>
            }
          />
        ) : null}
        {data.acme.staging ? (
          <Alert type="warning" showIcon title="当前使用 Let's Encrypt 测试环境签发证书，浏览器不会信任这些证书。" />
        ) : null}
        {data.orders.length ? (
          <Card title="签发进度">
            <Space orientation="vertical" size={12} style={{ width: "100%" }}>
              {data.orders.map((o) => (
                <IssueProgress key={o.id} order={o} />
              ))}
            </Space>
          </Card>
        ) : null}
        <Card title="我的证书">
          <ResponsiveTable<SslCertView>
            rowKey="id"
            dataSource={data.certificates}
            pagination={false}
            locale={{ emptyText: <Empty description="还没有证书" /> }}
            expandable={{
              rowExpandable: (c) => Boolean(c.notice),
              expandedRowRender: (c) => (
                <Alert type="warning" showIcon title={c.notice} description={formatTime(c.notice_at)} />
              ),
            }}
            columns={[
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
                      onConfirm={() => remove.mutate(c.id)}
                    >
                      <Button size="small" danger>
                        删除
                      </Button>
                    </Popconfirm>
                  </Space>
                ),
              },
            ]}
          />
        </Card>
        <FrpcCertHelp />
      </Space>
      <FormModal<SslUploadBody>
        open={modal === "upload"}
        title="上传证书"
        okText="上传"
        width={680}
        successText="证书已上传"
        onClose={() => setModal(null)}
        onSubmit={async (v) => {
          await uploadCertificate(v);
          await refresh();
        }}
      >
        <Form.Item name="domain" label="域名" rules={[{ required: true, message: "请选择域名" }]}>
          <Select options={domainOptions} placeholder="选择已验证的域名" />
        </Form.Item>
        <Form.Item
          name="certificate"
          label="证书（PEM，域名证书在前，随后依次是中间证书）"
          rules={[{ required: true, message: "请粘贴证书" }]}
        >
          <Input.TextArea rows={6} placeholder="-----BEGIN CERTIFICATE-----" spellCheck={false} />
        </Form.Item>
        <Form.Item name="private_key" label="私钥（PEM，未加密）" rules={[{ required: true, message: "请粘贴私钥" }]}>
          <Input.TextArea rows={5} placeholder="-----BEGIN PRIVATE KEY-----" spellCheck={false} />
        </Form.Item>
      </FormModal>
      <FormModal<SslIssueBody>
        open={modal === "issue"}
        title="申请免费证书"
        okText="开始申请"
        initialValues={{ challenge: "dns-01" }}
        onClose={() => setModal(null)}
        onSubmit={async (v) => {
          await startIssue(v);
          await refresh();
          feedback.success("已创建签发，请按提示添加验证记录");
        }}
      >
        <Form.Item name="domain" label="域名" rules={[{ required: true, message: "请选择域名" }]}>
          <Select options={domainOptions} placeholder="选择已验证的域名" />
        </Form.Item>
        <Form.Item name="challenge" label="验证方式" extra={`证书颁发机构：${data.acme.name}`}>
          <Radio.Group>
            <Space orientation="vertical">
              <Radio value="dns-01">DNS 验证：添加一条 TXT 记录，系统自动检测（推荐）</Radio>
              <Radio value="http-01">HTTP 验证：通过该域名的 HTTP 隧道在 80 端口提供一个验证文件</Radio>
            </Space>
          </Radio.Group>
        </Form.Item>
      </FormModal>
    </PageContainer>
  );
}
