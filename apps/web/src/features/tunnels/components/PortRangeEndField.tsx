import { MAX_PORT_RANGE, RemotePortEnd } from "@burrow/contract";
import { Form, InputNumber } from "antd";
import { schemaRule } from "@/lib/rules";

/**
 * 端口范围: the last port of a tcp/udp tunnel's range (remote_port..it, one frp proxy per port,
 * each counted against the plan's ports per tunnel); empty is a single port. Not with a random port.
 */
export function PortRangeEndField({ disabled }: { disabled: boolean }) {
  return (
    <Form.Item
      name="remote_port_end"
      label="端口范围（结束端口）"
      extra={`选填：占用 远程端口 至 结束端口 的每个端口（最多 ${MAX_PORT_RANGE} 个，每个端口计入套餐的单隧道端口数）`}
      rules={disabled ? [] : [schemaRule(RemotePortEnd)]}
    >
      <InputNumber
        disabled={disabled}
        min={1}
        max={65535}
        precision={0}
        style={{ width: "100%" }}
        placeholder={disabled ? "随机端口不支持端口范围" : "留空为单个端口"}
      />
    </Form.Item>
  );
}
