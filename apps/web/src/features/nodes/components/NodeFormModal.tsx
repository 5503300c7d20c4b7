import { type AdminNodeRow, DashboardAddr, HostName } from "@burrow/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Col, Divider, Form, Input, InputNumber, Radio, Row, Select } from "antd";
import { FormModal } from "@/components/FormModal";
import { SortField } from "@/components/SortField";
import { fieldRules, schemaRule } from "@/lib/rules";
import { formToCreateBody, formToUpdateBody, NEW_NODE, type NodeFormValues, nodeToForm } from "../node-form";
import { ALL, areaListQuery, createNode, levelListQuery, netTypeListQuery, nodesKeys, updateNode } from "../nodes.api";

export interface NodeFormModalProps {
  /** null: closed; `{}`: a new node; `{ row }`: editing it */
  editing: { row?: AdminNodeRow } | null;
  onClose: () => void;
}

const portRules = (label: string, required = true) =>
  fieldRules(label, { required, integer: true, range: { min: 1, max: 65535 } });

const half = { xs: 24, sm: 12 };

/** Create or edit a node: every field of the contract, grouped as an operator thinks of them. */
export function NodeFormModal({ editing, onClose }: NodeFormModalProps) {
  const queryClient = useQueryClient();
  const open = editing !== null;
  const areas = useQuery({ ...areaListQuery(ALL), enabled: open });
  const netTypes = useQuery({ ...netTypeListQuery(ALL), enabled: open });
  const levels = useQuery({ ...levelListQuery(ALL), enabled: open });
  const row = editing?.row;

  const save = async (v: NodeFormValues) => {
    if (row) await updateNode(formToUpdateBody(row.node_id, v));
    else await createNode(formToCreateBody(v));
    await queryClient.invalidateQueries({ queryKey: nodesKeys.all });
  };

  return (
    <FormModal<NodeFormValues>
      open={open}
      title={row ? `编辑节点 · ${row.name}` : "新增节点"}
      width={760}
      initialValues={row ? nodeToForm(row) : NEW_NODE}
      successText={row ? "节点已保存" : "节点已添加"}
      onSubmit={save}
      onClose={onClose}
    >
      <Divider titlePlacement="start" plain>
        基本信息
      </Divider>
      <Row gutter={16}>
        <Col {...half}>
          <Form.Item
            name="name"
            label="节点名称"
            rules={fieldRules("节点名称", { required: true, length: { min: 1, max: 50 } })}
          >
            <Input maxLength={50} placeholder="如：上海-电信-1" />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item name="area_id" label="地区" rules={fieldRules("地区", { required: true, choice: true })}>
            <Select
              loading={areas.isPending}
              options={areas.data?.list.map((a) => ({ value: a.area_id, label: a.area_name }))}
              placeholder="请选择地区"
            />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item
            name="net_type_id"
            label="网络类型"
            rules={fieldRules("网络类型", { required: true, choice: true })}
          >
            <Select
              loading={netTypes.isPending}
              options={netTypes.data?.list.map((t) => ({ value: t.id, label: t.name }))}
              placeholder="请选择网络类型"
            />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item
            name="level_id"
            label="最低等级"
            extra="套餐等级不低于此等级的用户可以使用"
            rules={fieldRules("最低等级", { required: true, choice: true })}
          >
            <Select
              loading={levels.isPending}
              options={levels.data?.list.map((l) => ({ value: l.id, label: `${l.name}（等级 ${l.level}）` }))}
              placeholder="请选择等级"
            />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item name="status" label="上架状态" rules={fieldRules("上架状态", { required: true, choice: true })}>
            <Radio.Group
              options={[
                { value: 2, label: "上架" },
                { value: -1, label: "下架" },
              ]}
            />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item
            name="agent_mode"
            label="接入方式"
            extra="节点代理：frps 只调用本机上的 Burrow 节点代理，控制台重启或网络中断时隧道照常工作，面板只在本机监听（生产推荐）。直连：frps 每次都调用控制台，仅适合单机部署。"
            rules={fieldRules("接入方式", { required: true, choice: true })}
          >
            <Radio.Group
              data-testid="node-agent-mode"
              options={[
                { value: 1, label: "节点代理（推荐）" },
                { value: 0, label: "直连控制台" },
              ]}
            />
          </Form.Item>
        </Col>
        <Col {...half}>
          <SortField />
        </Col>
        <Col span={24}>
          <Form.Item name="description" label="描述" rules={fieldRules("描述", { length: { max: 500 } })}>
            <Input.TextArea rows={2} maxLength={500} showCount />
          </Form.Item>
        </Col>
      </Row>

      <Divider titlePlacement="start" plain>
        frps 端口
      </Divider>
      <Row gutter={16}>
        <Col {...half}>
          <Form.Item
            name="host"
            label="公网地址"
            extra="frpc 连接和访客访问使用的域名或 IP"
            rules={[...fieldRules("公网地址", { required: true }), schemaRule(HostName)]}
          >
            <Input placeholder="如：sh1.example.com" />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item name="bind_port" label="绑定端口（bindPort）" rules={portRules("绑定端口")}>
            <InputNumber min={1} max={65535} precision={0} style={{ width: "100%" }} />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item
            name="vhost_http_port"
            label="HTTP 端口（vhostHTTPPort）"
            extra="留空则不提供 http 隧道"
            rules={portRules("HTTP 端口", false)}
          >
            <InputNumber min={1} max={65535} precision={0} style={{ width: "100%" }} />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item
            name="vhost_https_port"
            label="HTTPS 端口（vhostHTTPSPort）"
            extra="留空则不提供 https 隧道"
            rules={portRules("HTTPS 端口", false)}
          >
            <InputNumber min={1} max={65535} precision={0} style={{ width: "100%" }} />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item
            name="subdomain_host"
            label="子域名主机（subDomainHost）"
            extra="留空则只能使用自定义域名"
            rules={[schemaRule(HostName)]}
          >
            <Input placeholder="如：frp.example.com" />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item
            name="bandwidth"
            label="单隧道带宽上限（Mbps）"
            extra="0 表示不限制"
            rules={fieldRules("带宽", { required: true, integer: true, range: { min: 0, max: 100_000 } })}
          >
            <InputNumber min={0} max={100_000} precision={0} style={{ width: "100%" }} />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item name="port_min" label="远程端口下限" rules={portRules("远程端口下限")}>
            <InputNumber min={1} max={65535} precision={0} style={{ width: "100%" }} />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item
            name="port_max"
            label="远程端口上限"
            dependencies={["port_min"]}
            rules={[
              ...portRules("远程端口上限"),
              ({ getFieldValue }) => ({
                validator: (_rule, value) =>
                  value == null || getFieldValue("port_min") == null || value >= getFieldValue("port_min")
                    ? Promise.resolve()
                    : Promise.reject(new Error("端口上限不能小于下限")),
              }),
            ]}
          >
            <InputNumber min={1} max={65535} precision={0} style={{ width: "100%" }} />
          </Form.Item>
        </Col>
      </Row>

      <Divider titlePlacement="start" plain>
        管理面板（Burrow 轮询节点状态与流量）
      </Divider>
      <Row gutter={16}>
        <Col span={24}>
          <Form.Item
            name="api_addr"
            label="面板地址（webServer）"
            rules={[...fieldRules("面板地址", { required: true }), schemaRule(DashboardAddr)]}
          >
            <Input placeholder="http://10.0.0.5:7500" />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item
            name="api_user"
            label="面板用户名"
            rules={fieldRules("面板用户名", { required: true, length: { min: 1, max: 64 } })}
          >
            <Input maxLength={64} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col {...half}>
          <Form.Item
            name="api_password"
            label="面板密码"
            extra={row ? "留空则不修改" : "留空则自动生成"}
            rules={fieldRules("面板密码", { length: { min: 8, max: 64 } })}
          >
            <Input.Password maxLength={64} autoComplete="new-password" />
          </Form.Item>
        </Col>
      </Row>
    </FormModal>
  );
}
