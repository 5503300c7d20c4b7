import { TunnelProtocols } from "@burrow/contract";
import { Form, Input, Select } from "antd";
import { NodeFilterField } from "@/features/nodes/components/NodeFilterField";
import { fieldRules } from "@/lib/rules";

const protocolOptions = TunnelProtocols.map((p) => ({ value: p, label: p.toUpperCase() }));

/** The tunnel filters both tunnel lists share (name, node, protocol, status), inside their search form. */
export function TunnelFilterFields({
  nodes,
  statusOptions,
}: {
  nodes: { node_id: number; name: string }[] | undefined;
  statusOptions: { value: number; label: string }[];
}) {
  return (
    <>
      <Form.Item name="name" label="隧道名称" rules={fieldRules("隧道名称", { length: { max: 32 } })}>
        <Input allowClear placeholder="支持部分名称" style={{ width: 150 }} />
      </Form.Item>
      <NodeFilterField nodes={nodes} />
      <Form.Item name="protocol" label="协议">
        <Select allowClear placeholder="全部" style={{ width: 110 }} options={protocolOptions} />
      </Form.Item>
      <Form.Item name="status" label="状态">
        <Select allowClear placeholder="全部" style={{ width: 110 }} options={statusOptions} />
      </Form.Item>
    </>
  );
}
