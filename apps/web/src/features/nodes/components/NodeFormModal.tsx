import { type AdminNodeRow, DashboardAddr, HostName } from "@burrow/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Col, Divider, Form, Input, Radio, Row, Select } from "antd";
import { FormModal } from "@/components/FormModal";
import { NumberItem, PortItem } from "@/components/form/NumberItem";
import { TextItem } from "@/components/form/TextItem";
import { SortField } from "@/components/SortField";
import { fieldRules } from "@/lib/rules";
import { formToCreateBody, formToUpdateBody, NEW_NODE, type NodeFormValues, nodeToForm } from "../node-form";
import { ALL, areaListQuery, createNode, levelListQuery, netTypeListQuery, nodesKeys, updateNode } from "../nodes.api";

export interface NodeFormModalProps {
  /** null: closed; `{}`: a new node; `{ row }`: editing it */
  editing: { row?: AdminNodeRow } | null;
  onClose: () => void;
}

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
          <TextItem
            name="name"
            label="节点名称"
            required
            length={{ min: 1, max: 50 }}
            maxLength={50}
            placeholder="如：上海-电信-1"
          />
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
          <TextItem name="description" label="描述" length={{ max: 500 }} rows={2} maxLength={500} showCount />
        </Col>
      </Row>

      <Divider titlePlacement="start" plain>
        frps 端口
      </Divider>
      <Row gutter={16}>
        <Col {...half}>
          <TextItem
            name="host"
            label="公网地址"
            extra="frpc 连接和访客访问使用的域名或 IP"
            required
            schema={HostName}
            placeholder="如：sh1.example.com"
          />
        </Col>
        <Col {...half}>
          <PortItem name="bind_port" label="绑定端口（bindPort）" ruleLabel="绑定端口" required />
        </Col>
        <Col {...half}>
          <PortItem
            name="vhost_http_port"
            label="HTTP 端口（vhostHTTPPort）"
            ruleLabel="HTTP 端口"
            extra="留空则不提供 http 隧道"
          />
        </Col>
        <Col {...half}>
          <PortItem
            name="vhost_https_port"
            label="HTTPS 端口（vhostHTTPSPort）"
            ruleLabel="HTTPS 端口"
            extra="留空则不提供 https 隧道"
          />
        </Col>
        <Col {...half}>
          <TextItem
            name="subdomain_host"
            label="子域名主机（subDomainHost）"
            extra="留空则只能使用自定义域名"
            schema={HostName}
            placeholder="如：frp.example.com"
          />
        </Col>
        <Col {...half}>
          <NumberItem
            name="bandwidth"
            label="单隧道带宽上限（Mbps）"
            ruleLabel="带宽"
            extra="0 表示不限制"
            required
            min={0}
            max={100_000}
            precision={0}
          />
        </Col>
        <Col {...half}>
          <PortItem name="port_min" label="远程端口下限" required />
        </Col>
        <Col {...half}>
          <PortItem
            name="port_max"
            label="远程端口上限"
            required
            dependencies={["port_min"]}
            rules={[
              ({ getFieldValue }) => ({
                validator: (_rule, value) =>
                  value == null || getFieldValue("port_min") == null || value >= getFieldValue("port_min")
                    ? Promise.resolve()
                    : Promise.reject(new Error("端口上限不能小于下限")),
              }),
            ]}
          />
        </Col>
      </Row>

      <Divider titlePlacement="start" plain>
        管理面板（Burrow 轮询节点状态与流量）
      </Divider>
      <Row gutter={16}>
        <Col span={24}>
          <TextItem
            name="api_addr"
            label="面板地址（webServer）"
            ruleLabel="面板地址"
            required
            schema={DashboardAddr}
            placeholder="http://10.0.0.5:7500"
          />
        </Col>
        <Col {...half}>
          <TextItem
            name="api_user"
            label="面板用户名"
            required
            length={{ min: 1, max: 64 }}
            maxLength={64}
            autoComplete="off"
          />
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
