import type { SslCertView, SslIssueBody, SslUploadBody } from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Empty, Form, Input, Radio, Select, Space } from "antd";
import { useState } from "react";
import { Link } from "react-router";
import { FormModal } from "@/components/FormModal";
import { PageContainer } from "@/components/PageContainer";
import { ResponsiveTable } from "@/components/ResponsiveTable";
import { feedback } from "@/lib/feedback";
import { formatTime } from "@/lib/format";
import { FrpcCertHelp } from "../components/FrpcCertHelp";
import { IssueProgress } from "../components/IssueProgress";
import { deleteCertificate, sslKeys, sslOverviewQuery, startIssue, uploadCertificate } from "../ssl.api";
import { sslColumns } from "./SslPage.columns";

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
            columns={sslColumns((id) => remove.mutate(id))}
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
