import { Form, Select } from "antd";

/** A search form's node filter (`node_id`), over the nodes the page has loaded. */
export function NodeFilterField({ nodes }: { nodes: { node_id: number; name: string }[] | undefined }) {
  return (
    <Form.Item name="node_id" label="节点">
      <Select
        allowClear
        placeholder="全部"
        style={{ width: 150 }}
        options={nodes?.map((n) => ({ value: n.node_id, label: n.name }))}
      />
    </Form.Item>
  );
}
