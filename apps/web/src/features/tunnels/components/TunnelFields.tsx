import {
  CustomDomain,
  LocalIp,
  Subdomain,
  TunnelName,
  type TunnelProtocol,
  TunnelProtocols,
  type UserNodeRow,
} from "@burrow/contract";
import { Col, Form, Input, Radio, Row, Select, Space, Typography } from "antd";
import { HalfCol } from "@/components/form/HalfCol";
import { ListItem } from "@/components/form/ListItem";
import { NumberItem, PortItem } from "@/components/form/NumberItem";
import { SwitchItem } from "@/components/form/SwitchItem";
import { TextItem } from "@/components/form/TextItem";
import { NodeStatusTag } from "@/features/nodes/components/NodeTags";
import { fieldRules, schemaRule } from "@/lib/rules";
import { isSecretForm, isWebProtocol } from "../tunnel-form";
import { HttpOptionsFields } from "./HttpOptionsFields";
import { PortRangeEndField } from "./PortRangeEndField";
import { RemotePortField } from "./RemotePortField";

/** The tunnel name's rules, the contract's own (also the operator's rename). */
export const tunnelNameRules = [...fieldRules("隧道名称", { required: true }), schemaRule(TunnelName)];

const PROXY_PROTOCOL_OPTIONS = [
  { value: "off", label: "关闭" },
  { value: "v1", label: "v1（文本）" },
  { value: "v2", label: "v2（二进制）" },
];

export interface TunnelFieldsProps {
  /** the nodes the customer may use (create) */
  nodes: UserNodeRow[];
  nodesLoading?: boolean;
  /** edit: node and protocol are fixed */
  mode: "create" | "edit";
}

/**
 * The fields of a tunnel, for the create page and the edit modal. What is shown follows the
 * protocol: a remote port (or 随机端口) for tcp/udp, domains and the http options for http(s).
 */
export function TunnelFields({ nodes, nodesLoading, mode }: TunnelFieldsProps) {
  const form = Form.useFormInstance();
  const nodeId = Form.useWatch<number | undefined>("node_id", form);
  const protocol = Form.useWatch<TunnelProtocol | undefined>("protocol", form);
  const randomPort = Form.useWatch<boolean | undefined>("random_port", form);
  const node = nodes.find((n) => n.node_id === nodeId);
  const web = isWebProtocol(protocol);
  const secret = isSecretForm(protocol);
  const offered = node?.protocols ?? TunnelProtocols;

  return (
    <>
      <Row gutter={16}>
        <HalfCol>
          <Form.Item name="tun_name" label="隧道名称" rules={tunnelNameRules}>
            <Input maxLength={32} placeholder="如：home-nas" />
          </Form.Item>
        </HalfCol>
        <HalfCol>
          <Form.Item
            name="node_id"
            label="节点"
            rules={fieldRules("节点", { required: true, choice: true })}
            extra={node ? `远程端口范围 ${node.port_min}-${node.port_max}` : undefined}
          >
            <Select
              disabled={mode === "edit"}
              loading={nodesLoading}
              placeholder="请选择节点"
              optionLabelProp="title"
              options={nodes.map((n) => ({
                value: n.node_id,
                title: n.name,
                label: (
                  <Space>
                    {n.name}
                    <Typography.Text type="secondary">{n.area_name}</Typography.Text>
                    <NodeStatusTag status={n.status} />
                  </Space>
                ),
              }))}
              onChange={(id: number) => {
                const next = nodes.find((n) => n.node_id === id);
                if (next && protocol && !next.protocols.includes(protocol) && !isSecretForm(protocol))
                  form.setFieldValue("protocol", "tcp");
              }}
            />
          </Form.Item>
        </HalfCol>
        <Col span={24}>
          <Form.Item name="protocol" label="协议" rules={fieldRules("协议", { required: true, choice: true })}>
            <Radio.Group
              disabled={mode === "edit"}
              optionType="button"
              buttonStyle="solid"
              options={TunnelProtocols.map((p) => ({
                value: p,
                label: p.toUpperCase(),
                // every frps serves secret tunnels (no vhost port or port range of the node's needed)
                disabled: !offered.includes(p) && !isSecretForm(p),
              }))}
            />
          </Form.Item>
        </Col>
        <HalfCol>
          <TextItem
            name="local_ip"
            label="本地地址"
            extra="frpc 所在网络中服务的地址"
            required
            schema={LocalIp}
            placeholder="127.0.0.1"
          />
        </HalfCol>
        <HalfCol>
          <PortItem name="local_port" label="本地端口" required placeholder="如：22" />
        </HalfCol>
        {secret ? (
          <Col span={24}>
            <Typography.Paragraph type="secondary" className="tunnel-secret-note">
              私密隧道（{protocol?.toUpperCase()}）不占用公网端口、不使用域名：创建后在隧道详情页获取密钥和访问端 frpc
              配置，在另一台电脑上运行即可访问。
              {protocol === "xtcp"
                ? "XTCP 优先点对点直连；双方网络无法打洞时自动改由节点中转（同 STCP），中转的流量计入套餐流量。"
                : null}
            </Typography.Paragraph>
          </Col>
        ) : web ? (
          <>
            <HalfCol>
              <ListItem
                name="custom_domains"
                label="自定义域名"
                extra="须先在「我的域名」中验证并解析到该节点，回车添加多个"
                schema={CustomDomain}
                separators={[",", " "]}
                placeholder="如：www.example.com"
              />
            </HalfCol>
            <HalfCol>
              <Form.Item
                label="子域名"
                htmlFor="subdomain"
                extra={node?.subdomain_host ? undefined : "该节点不支持子域名"}
              >
                <Space.Compact block>
                  <Form.Item name="subdomain" noStyle rules={[schemaRule(Subdomain)]}>
                    <Input id="subdomain" disabled={!!node && !node.subdomain_host} placeholder="如：myapp" />
                  </Form.Item>
                  {node?.subdomain_host ? <Space.Addon>.{node.subdomain_host}</Space.Addon> : null}
                </Space.Compact>
              </Form.Item>
            </HalfCol>
          </>
        ) : (
          <RemotePortField node={node} randomPort={randomPort} mode={mode} />
        )}
        {web || secret ? null : (
          <HalfCol>
            <PortRangeEndField disabled={!!randomPort} />
          </HalfCol>
        )}
      </Row>
      <Row gutter={16}>
        <Col xs={12} md={6}>
          <SwitchItem name="use_encryption" label="加密传输" />
        </Col>
        <Col xs={12} md={6}>
          <SwitchItem name="use_compression" label="压缩传输" />
        </Col>
        <Col xs={24} md={12}>
          <NumberItem
            name="bandwidth"
            label="带宽限制（Mbps）"
            ruleLabel="带宽限制"
            extra="留空或 0 表示使用套餐带宽"
            min={0}
            max={100_000}
            precision={0}
          />
        </Col>
        {protocol && protocol !== "udp" && !secret ? (
          <Col xs={24} md={12}>
            <Form.Item
              name="proxy_protocol"
              label="PROXY 协议"
              extra="开启后 frpc 在连接开头告知本地服务访客的真实地址；本地服务须支持该协议（如 nginx 的 proxy_protocol）"
            >
              <Select options={PROXY_PROTOCOL_OPTIONS} />
            </Form.Item>
          </Col>
        ) : null}
      </Row>
      {protocol === "http" ? <HttpOptionsFields /> : null}
    </>
  );
}
