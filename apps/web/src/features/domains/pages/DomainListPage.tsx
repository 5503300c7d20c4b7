import { CustomDomain } from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Form, Input, Popconfirm, Select, Space } from "antd";
import { useState } from "react";
import { Link } from "react-router";
import { FormModal } from "@/components/FormModal";
import { ListTableCard } from "@/components/ListTableCard";
import { PageContainer } from "@/components/PageContainer";
import { statePaging } from "@/components/PagedTableCard";
import { AddButton } from "@/components/table/AddButton";
import { ALL, userNodeListQuery } from "@/features/nodes/nodes.api";
import { feedback } from "@/lib/feedback";
import { formatTime } from "@/lib/format";
import { fieldRules, schemaRule } from "@/lib/rules";
import { addDomain, deleteDomain, domainsKeys, myDomainsQuery, verifyDomain } from "../domains.api";
import { domainColumns } from "./DomainListPage.columns";

interface AddForm {
  domain: string;
  node_id: number;
  icp_no?: string;
}

/** /domain: the customer's own domains, the records to create, verification and the tunnels using them. */
export function DomainListPage() {
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(10);
  const { data, isFetching } = useQuery(myDomainsQuery({ page, size }));
  const nodes = useQuery(userNodeListQuery(ALL));
  const [adding, setAdding] = useState(false);
  const webNodes = (nodes.data?.list ?? []).filter((n) => n.protocols.some((p) => p === "http" || p === "https"));

  const refresh = () => queryClient.invalidateQueries({ queryKey: domainsKeys.all });
  const verify = useMutation({
    mutationFn: verifyDomain,
    onSuccess: async (r) => {
      if (r.ok) feedback.success(`${r.domain.domain} 验证成功`);
      else feedback.error(`验证未通过：${r.domain.problem ?? "记录不正确"}`);
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: deleteDomain,
    onSuccess: async () => {
      feedback.success("域名已删除");
      await refresh();
    },
  });

  const flagged = (data?.list ?? []).filter((d) => d.state === "flagged");
  const columns = domainColumns({
    title: "操作",
    key: "actions",
    width: 130,
    render: (_: unknown, row) =>
      row.state === "unbound" ? (
        <Link to="/help/ticket">提交工单</Link>
      ) : (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            loading={verify.isPending && verify.variables === row.id}
            onClick={() => verify.mutate(row.id)}
          >
            验证
          </Button>
          <Popconfirm
            title={`删除域名 ${row.domain}？`}
            description={row.tunnels.length ? "该域名正被隧道使用，请先修改这些隧道" : undefined}
            okText="删除"
            cancelText="取消"
            okButtonProps={{ danger: true, disabled: row.tunnels.length > 0 }}
            onConfirm={() => remove.mutateAsync(row.id).catch(() => undefined)}
          >
            <Button type="link" size="small" danger>
              删除
            </Button>
          </Popconfirm>
        </Space>
      ),
  });

  return (
    <PageContainer
      title="我的域名"
      description="添加自己的域名，按提示在域名的 DNS 服务商处添加解析记录并验证；验证通过的域名才能用于 http/https 隧道"
      extra={<AddButton onClick={() => setAdding(true)}>添加域名</AddButton>}
    >
      <Space orientation="vertical" size={16} style={{ width: "100%" }}>
        {flagged.map((d) => (
          <Alert
            key={d.id}
            type="warning"
            showIcon
            message={`域名 ${d.domain} 的 TXT 验证记录已缺失`}
            description={`最近检查：${formatTime(d.checked_at)}。请在 ${formatTime(d.grace_until)} 前恢复记录 ${d.records[0]?.host ?? ""} 并点击「验证」，否则使用该域名的隧道将无法上线。`}
          />
        ))}
        <ListTableCard
          columns={columns}
          data={data}
          loading={isFetching}
          pagination={(total) => statePaging(page, size, total ?? 0, setPage, setSize)}
          size="middle"
        />
      </Space>
      <FormModal<AddForm>
        open={adding}
        title="添加域名"
        okText="添加"
        successText="域名已添加，请按提示添加解析记录后验证"
        onSubmit={async (v) => {
          await addDomain({ domain: v.domain.trim(), node_id: v.node_id, icp_no: v.icp_no?.trim() || undefined });
          await refresh();
        }}
        onClose={() => setAdding(false)}
      >
        {(form) => (
          <>
            <Form.Item
              name="domain"
              label="域名"
              extra="可填写泛域名 *.example.com：以 example.com 的 TXT 记录验证，可用于其下一级的任意子域名"
              rules={[
                ...fieldRules("域名", { required: true, length: { min: 1, max: 253 } }),
                schemaRule(CustomDomain),
              ]}
            >
              <Input placeholder="如：www.example.com 或 *.example.com" maxLength={253} />
            </Form.Item>
            <Form.Item
              name="node_id"
              label="解析到的节点"
              extra="域名需 CNAME 到该节点，且只能用于该节点上的隧道"
              rules={[{ required: true, message: "请选择节点" }]}
            >
              <Select
                placeholder="选择节点"
                loading={nodes.isFetching}
                options={webNodes.map((n) => ({
                  value: n.node_id,
                  label: `${n.name}（${n.area_name}${n.icp_required ? "，需备案" : ""}）`,
                }))}
              />
            </Form.Item>
            <Form.Item noStyle dependencies={["node_id"]}>
              {() => {
                const node = webNodes.find((n) => n.node_id === form.getFieldValue("node_id"));
                const required = node?.icp_required === 1;
                return (
                  <Form.Item
                    name="icp_no"
                    label="ICP 备案号"
                    extra={required ? "该节点位于中国大陆，域名须已备案" : "可选"}
                    rules={[{ required, message: "请填写 ICP 备案号" }]}
                  >
                    <Input placeholder="如：京ICP备12345678号-1" maxLength={40} />
                  </Form.Item>
                );
              }}
            </Form.Item>
          </>
        )}
      </FormModal>
    </PageContainer>
  );
}
