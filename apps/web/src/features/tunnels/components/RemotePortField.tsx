import type { UserNodeRow } from "@burrow/contract";
import { Checkbox, Form, InputNumber } from "antd";
import { HalfCol } from "@/components/form/HalfCol";
import { fieldRules } from "@/lib/rules";

/**
 * A tcp/udp tunnel's 远程端口 within the node's range, or 随机端口 (the system picks one; on edit, a new
 * one), which disables the number and its rules.
 */
export function RemotePortField({
  node,
  randomPort,
  mode,
}: {
  node: UserNodeRow | undefined;
  randomPort: boolean | undefined;
  mode: "create" | "edit";
}) {
  return (
    <HalfCol>
      <Form.Item
        name="remote_port"
        label="远程端口"
        rules={
          randomPort
            ? []
            : fieldRules("远程端口", {
                required: true,
                integer: true,
                range: node ? { min: node.port_min, max: node.port_max } : { min: 1, max: 65535 },
              })
        }
      >
        <InputNumber
          disabled={!!randomPort}
          min={1}
          max={65535}
          precision={0}
          style={{ width: "100%" }}
          placeholder={randomPort ? "由系统分配" : node ? `${node.port_min}-${node.port_max}` : "远程端口"}
        />
      </Form.Item>
      <Form.Item name="random_port" valuePropName="checked" className="tunnel-random-port">
        <Checkbox>{mode === "edit" ? "重新分配随机端口" : "随机端口"}</Checkbox>
      </Form.Item>
    </HalfCol>
  );
}
