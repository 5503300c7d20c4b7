import { ApiTokenScopeLabel } from "@burrow/contract";
import { Table, Tag, Typography } from "antd";
import { CodeBlock } from "@/components/CodeBlock";
import { curlExample, type ScopedEndpoint, tokenEndpoints } from "../api-scopes";

const rows = tokenEndpoints();

/** Under /doc/api: the curl example with this console's address, and each endpoint's scope (from the contract). */
export function ApiScopeReference() {
  return (
    <section aria-label="接口与权限范围">
      <Typography.Title level={2} id="example">
        示例
      </Typography.Title>
      <CodeBlock code={curlExample(window.location.origin)} label="curl 示例" />
      <Typography.Title level={2} id="endpoints">
        接口与权限范围
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        以下列表由接口定义自动生成：API 令牌只能调用这些接口，每个接口需要令牌带有对应的权限范围。
      </Typography.Paragraph>
      <Table<ScopedEndpoint>
        size="small"
        rowKey={(r) => `${r.method} ${r.path}`}
        pagination={false}
        // a phone scrolls the table, never the page
        scroll={{ x: 760 }}
        dataSource={rows}
        columns={[
          {
            title: "权限范围",
            dataIndex: "scope",
            width: 150,
            render: (s: ScopedEndpoint["scope"]) => <Tag title={ApiTokenScopeLabel[s]}>{s}</Tag>,
          },
          { title: "方法", dataIndex: "method", width: 80 },
          {
            title: "路径",
            dataIndex: "path",
            width: 270,
            render: (p: string) => <Typography.Text code>{p}</Typography.Text>,
          },
          { title: "说明", dataIndex: "summary" },
        ]}
      />
    </section>
  );
}
